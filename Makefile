# The two set-up commands (README): `make demo` and `make test`. Each installs what is missing,
# builds, and runs. Other targets are steps of those two.
BUILD ?= build
JOBS ?= $(shell nproc)
PYTHON := .venv/bin/python

.PHONY: all deps build demo test clean format

all: build

deps:
	@scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# The default job: on a CUDA device its GPU schedulers, otherwise its CPU fallback.
demo: build
	$(BUILD)/bin/schedbench sweep jobs/demo.json --out results/demo
	$(PYTHON) plot/plot_demo.py results/demo

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
	$(PYTHON) -m unittest discover -s plot -p 'test_*.py'

format:
	@clang-format -i $$(git ls-files '*.cpp' '*.hpp' '*.cu' '*.cuh')

clean:
	rm -rf $(BUILD)
