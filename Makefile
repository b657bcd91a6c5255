# The two set-up commands (README): `make demo` and `make test`. Each installs what is missing,
# builds, and runs. Other targets are steps of those two.
BUILD ?= build
JOBS ?= $(shell nproc)
# ccache (optional, CMakeLists.txt) rewrites paths below the checkout as relative ones, so a fresh
# clone elsewhere reuses what another checkout compiled.
export CCACHE_BASEDIR ?= $(CURDIR)
PYTHON := .venv/bin/python
# Where `make figures` and `make report` read committed job results: results/$(DEVICE)/<job>.json.
DEVICE ?= nvidia-h100-80gb-hbm3
# The jobs whose figures the report shows, in its order; the module
# python/schedbench_results/families/fig_<job, - and . as _>.py draws each.
FIGURE_JOBS := toy-block-size toy-init-n toy-steps mvp pic-cross-section pic-block-size \
	pic-poisson-steps pic-mobility-steps pic-init-n pic-scale pic-turnover table-3.2-compaction \
	warp-sync air-reduced-field air-phase-time pic-field air-space-charge ccp-speed ccp-replicas
# Figures that draw several jobs' results, in the report after FIGURE_JOBS'; their family module
# names the jobs (PARTS). The many-GPU jobs need a GPU per rank and a launcher (sweep --launcher),
# so `make results` does not run them; it runs the precision jobs (MERGED_JOBS).
MERGED_FIGURES := many-gpus precision
MERGED_JOBS := precision-pic precision-air
# Jobs that need more than one GPU's node gives every machine: streamed-mvp and streamed-pic pin
# 114 and 168 GB of host memory, so `make results` does not run them either.
LARGE_HOST_FIGURES := streamed-mvp streamed-pic

.PHONY: all deps configure build build-demo demo test test-slurm clean format figures report results

all: build

deps:
	@scripts/install-deps.sh

# The first build compiles for many minutes (docs/design.md §7 gives the measured times); later
# ones reuse what is unchanged. A new build folder gets Ninja, which compiles the objects of a
# library and of what links it side by side (the Makefile generator waits for the library);
# one configured before keeps its generator.
GENERATOR ?= Ninja
configure: deps
	@test -x $(BUILD)/bin/schedbench || echo "first build: many minutes on 2 cores (docs/design.md §7)"
	@if [ -f $(BUILD)/CMakeCache.txt ]; then cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release; \
	else cmake -S . -B $(BUILD) -G "$(GENERATOR)" -DCMAKE_BUILD_TYPE=Release; fi >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

# What the demo runs, and no test program: the tool and its point runner.
build-demo: configure
	@cmake --build $(BUILD) -j $(JOBS) --target schedbench schedbench-point

# The default job: on a CUDA device its GPU schedulers, otherwise its CPU fallback.
demo: build-demo
	$(BUILD)/bin/schedbench sweep jobs/demo.json --out results/demo/demo.json --overwrite
	$(PYTHON) plot/plot_demo.py results/demo/demo.json --out results/demo

# Every figure job on this machine's GPU into results/<device>/ (about 75 minutes on an H100, their estimates summed).
# Interrupted, it resumes where it stopped.
results: build
	scripts/run-jobs.sh --schedbench $(BUILD)/bin/schedbench $(FIGURE_JOBS:%=jobs/%.json) \
		$(MERGED_JOBS:%=jobs/%.json)

# Figures and report from committed results only: no build, no GPU. A job without a results
# file is reported and skipped. The report draws its own figures into report/figures; for a
# report of any folder of results: .venv/bin/python -m schedbench_results.report DIR --out OUT.
figures: deps
	$(PYTHON) plot/make_figures.py results/$(DEVICE) --out report/figures $(FIGURE_JOBS) \
		$(MERGED_FIGURES) $(LARGE_HOST_FIGURES)

# Where `make report` writes: the committed report/ unless REPORT names another folder (for a
# DEVICE of one's own, so that the committed report stays as it is).
REPORT ?= report
report: deps
	$(PYTHON) -m schedbench_results.report results/$(DEVICE) --out $(REPORT) $(FIGURE_JOBS) \
		$(MERGED_FIGURES) $(LARGE_HOST_FIGURES)

# Both suites run whatever the first gives; each one's failure is named, then the target fails.
test: build
	@failed=""; \
	(cd $(BUILD) && ctest --output-on-failure -j $(JOBS)) || failed="$$failed ctest"; \
	$(PYTHON) -m unittest discover -s plot -p 'test_*.py' || failed="$$failed python"; \
	if [ -n "$$failed" ]; then echo "make test: failed:$$failed" >&2; exit 1; fi

# `submit --slurm` end to end on a one-node Slurm cluster of this machine (docs/guide.md, "How do
# I run the tests?"); as root it installs Slurm where missing; SKIPPED where the cluster cannot
# start.
test-slurm: build
	scripts/test-slurm.sh $(BUILD)/bin/schedbench

format:
	@clang-format -i $$(git ls-files '*.cpp' '*.hpp' '*.cu' '*.cuh')

clean:
	rm -rf $(BUILD)
