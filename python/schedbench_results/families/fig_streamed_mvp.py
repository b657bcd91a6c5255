"""Populations larger than the device: mvp in device memory and streamed from pinned host
memory (streamed.py draws it). Reads the results of jobs/streamed-mvp.json:
.venv/bin/python -m schedbench_results.families.fig_streamed_mvp \
results/DEVICE/streamed-mvp.json --out DIR"""

from ..figures import main
from .streamed import figures

JOB = "streamed-mvp"

if __name__ == "__main__":
    main(figures, __doc__, JOB)
