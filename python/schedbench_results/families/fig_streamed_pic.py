"""Populations larger than the device: pic in device memory and streamed from pinned host
memory (streamed.py draws it). Reads the results of jobs/streamed-pic.json:
.venv/bin/python -m schedbench_results.families.fig_streamed_pic \
results/DEVICE/streamed-pic.json --out DIR"""

from ..figures import main
from .streamed import figures

JOB = "streamed-pic"

if __name__ == "__main__":
    main(figures, __doc__, JOB)
