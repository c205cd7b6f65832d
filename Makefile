# sftdata: `make demo` shows the pipeline on generated data, `make test` runs the test suite.
PYTHON ?= python3
# The optional parts (docs/testing.md): tests that need one carry its marker and skip without it. `make test-extras`
# installs them all and runs only those tests, where a missing part fails. `make test SWIFT=1 LS=1 CLIENTS=1 OCR=1 RAY=1`
# installs the parts named and runs the whole suite with them.
# SWIFT=1: torch, torchvision and ms-swift (make swift): Swift's own template over every exported row, train.sh
SWIFT  ?= 0
# LS=1: Label Studio in .venv-ls (make labelstudio): the review round trip against a real server
LS     ?= 0
# CLIENTS=1: the formats' real clients (make clients): every demo answer through them
CLIENTS ?= 0
# OCR=1: the ocr extra, RapidOCR on ONNX Runtime (make ocr): OCR text elements for annotated phone frames
OCR    ?= 0
# RAY=1: the ray extra (make ray): the ray executor on a Ray started on 127.0.0.1
RAY    ?= 0
CLIENT_VENVS := .venv-clients
VENV   := .venv
BIN    := $(VENV)/bin
SAMPLE := raw/sample/sample.tfrecord.gz
MIND2WEB := raw/sample/mind2web.parquet
WEB_ANNOTATED := raw/sample/web-annotated
DEMO   := processed/demo

.PHONY: demo test test-extras swift ocr ray labelstudio clients clients-table bench bench-ingest bench-overlay bench-checks \
        bench-speed fonts chromium clean help

help:
	@echo "make demo   - generate a sample, ingest it into $(DEMO) and print a summary"
	@echo "make test   - install the dev extras into $(VENV) and run the tests (no optional part needed)"
	@echo "make test-extras - install every optional part and run the tests that need one (docs/testing.md)"
	@echo "make swift  - add torch, torchvision and ms-swift to $(VENV) (train.sh, sftdata preflight)"
	@echo "make ocr    - add RapidOCR to $(VENV) (sftdata ingest annotated --ocr)"
	@echo "make ray    - add Ray to $(VENV) (the ray executor, docs/cluster.md)"
	@echo "make labelstudio - Label Studio in .venv-ls (sftdata review)"
	@echo "make clients - the formats' real clients in .venv-clients (make clients-table)"
	@echo "make bench  - run the benchmarks (TensorFlow comparison in .venv-bench)"

$(BIN)/python:
	@echo "creating the virtualenv $(VENV)"
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# pip byte-compiles what it installs one file after another (half of its time); compileall does the same on every
# core, and compiles sftdata's own modules too (installed editable, pip leaves them). Compiled here, not on first
# import: where PYTHONDONTWRITEBYTECODE is set (CI images often set it), every process of the test suite would
# compile its imports again. A file that does not compile is skipped, as pip does; an edited module is compiled
# again on import, as always.
SITE_PACKAGES = $$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	@echo "installing sftdata, its dependencies and the test tools into $(VENV) (pip, quiet: 1-3 minutes the first time)"
	$(BIN)/python -m pip install -q --no-compile -e '.[dev]'
	$(BIN)/python -m compileall -q -j 0 $(SITE_PACKAGES) sftdata > /dev/null || true
	@touch $@

# rapidocr-onnxruntime (and ms-swift's stack) depend on opencv-python, whose cv2 needs libGL and shadows the headless
# build we use: keep one OpenCV, the headless one
KEEP_HEADLESS_OPENCV = if $(BIN)/python -m pip show -q opencv-python 2>/dev/null; then \
	  $(BIN)/python -m pip uninstall -q -y opencv-python && \
	  $(BIN)/python -m pip install -q --force-reinstall --no-deps opencv-python-headless; fi

# `.[dev,...]` with the extras given and those already in $(VENV): one resolve for all of them, so adding one extra
# never moves a package another one pinned
comma := ,
space := $(subst ,, )
extras_with = $(subst $(space),$(comma),$(sort dev $(1) $(if $(wildcard $(VENV)/.installed-ocr),ocr) \
                $(if $(wildcard $(VENV)/.installed-swift),swift) $(if $(wildcard $(VENV)/.installed-ray),ray)))

$(VENV)/.installed-ocr: pyproject.toml | $(VENV)/.installed
	@echo "installing the ocr extra into $(VENV) (RapidOCR and ONNX Runtime, about 60 MB: under a minute)"
	$(BIN)/python -m pip install -q -e '.[$(call extras_with,ocr)]'
	@$(KEEP_HEADLESS_OPENCV)
	@touch $@

ocr: $(VENV)/.installed-ocr

$(VENV)/.installed-ray: pyproject.toml | $(VENV)/.installed
	@echo "installing the ray extra into $(VENV) (Ray, about 70 MB to download, 240 MB installed: under a minute)"
	$(BIN)/python -m pip install -q -e '.[$(call extras_with,ray)]'
	@touch $@

ray: $(VENV)/.installed-ray

# apt-get as root, waiting for another install's lock instead of failing
APT_INSTALL := .ci/apt-install

# Chinese labels and sample screens need a real CJK font (never tofu boxes).
fonts:
	@if ! fc-list :lang=zh 2>/dev/null | grep -q . ; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing a CJK font (fonts-noto-cjk, about 1 minute)"; \
	    $(APT_INSTALL) fonts-noto-cjk fontconfig; \
	  else \
	    echo "no CJK font found: install one, e.g. 'sudo apt-get install fonts-noto-cjk' (or fonts-wqy-microhei)"; exit 1; \
	  fi; \
	fi

# headless Chromium: the report's and Label Studio's rendering tests (make test-extras)
chromium:
	@if ! command -v chromium >/dev/null; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing Chromium (apt-get, about 1-2 minutes)"; \
	    $(APT_INSTALL) chromium; \
	  else \
	    echo "no chromium on PATH: install it, e.g. 'sudo apt-get install chromium'"; exit 1; \
	  fi; \
	fi

$(SAMPLE): | $(VENV)/.installed fonts
	$(BIN)/sftdata sample $@ --episodes 12 --seed 0

$(MIND2WEB): | $(VENV)/.installed fonts
	$(BIN)/sftdata sample $@ --mind2web --seed 0

$(WEB_ANNOTATED): | $(VENV)/.installed fonts
	$(BIN)/sftdata sample $@ --annotated-web --seed 0

# LLM=openai uses OPENAI_API_KEY (+ OPENAI_BASE_URL, SFTDATA_MODEL) instead of the offline template backend
LLM ?= template
demo: $(VENV)/.installed fonts $(SAMPLE) $(MIND2WEB) $(WEB_ANNOTATED)
	$(BIN)/sftdata run configs/demo.toml --backend $(LLM)

# torch and torchvision first, as a matching pair: Swift's Qwen-VL templates import qwen-vl-utils, which imports
# torchvision, and PyPI's torchvision for torch 2.13 is a CUDA build that does not load beside the CPU torch.
# This pair (a CUDA build, about 5.5 GB) runs on a CPU-only machine.
TORCH ?= torch==2.14.1 torchvision==0.29.1
$(VENV)/.installed-swift: pyproject.toml | $(VENV)/.installed
	@echo "installing torch, torchvision and ms-swift into $(VENV) (about 6 GB: 5-15 minutes)"
	$(BIN)/python -m pip install -q $(TORCH)
	$(BIN)/python -m pip install -q -e '.[$(call extras_with,swift)]'
	@$(KEEP_HEADLESS_OPENCV)
	@touch $@

swift: $(VENV)/.installed-swift

# One test worker more than cores: part of the suite waits (real subprocesses, fake endpoints' latency, kill
# points), and a third worker keeps both cores of a 2-core machine busy meanwhile (348 s -> 305 s there).
TEST_WORKERS ?= $(shell $(PYTHON) -c "import os; n = len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else os.cpu_count(); print((n or 1) + 1)")

test: $(VENV)/.installed fonts $(if $(filter 1,$(SWIFT)),$(VENV)/.installed-swift) $(if $(filter 1,$(LS)),.venv-ls/.installed) \
      $(if $(filter 1,$(CLIENTS)),$(CLIENT_VENVS)/.installed) $(if $(filter 1,$(OCR)),$(VENV)/.installed-ocr) \
      $(if $(filter 1,$(RAY)),$(VENV)/.installed-ray)
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile

# Only the tests that need an optional part (their markers, tests/extras.py), with every part installed; a missing
# part fails them instead of skipping. With plain `make test` this runs each test once (CI: .ci/run).
EXTRA_MARKERS := swift or label_studio or clients or ocr or ray or chromium
test-extras: $(VENV)/.installed fonts chromium $(VENV)/.installed-swift $(VENV)/.installed-ocr $(VENV)/.installed-ray \
             .venv-ls/.installed $(CLIENT_VENVS)/.installed
	SFTDATA_REQUIRE_SWIFT=1 SFTDATA_REQUIRE_LABEL_STUDIO=1 SFTDATA_REQUIRE_CLIENTS=1 SFTDATA_REQUIRE_OCR=1 \
	SFTDATA_REQUIRE_RAY=1 SFTDATA_REQUIRE_CHROMIUM=1 $(BIN)/python -m pytest -n auto --dist loadfile -m "$(EXTRA_MARKERS)"

.venv-bench/.installed: pyproject.toml
	$(PYTHON) -m venv .venv-bench
	.venv-bench/bin/python -m pip install -q --upgrade pip
	.venv-bench/bin/python -m pip install -q -e '.[bench]'
	@touch $@

bench-ingest: .venv-bench/.installed fonts
	.venv-bench/bin/python benchmarks/ingest.py

bench-overlay: $(VENV)/.installed fonts
	$(BIN)/python benchmarks/overlay.py

bench-checks: $(VENV)/.installed fonts
	$(BIN)/python benchmarks/certify.py --pool --layers
	$(BIN)/python benchmarks/agreement.py
	$(BIN)/python benchmarks/future_text.py
	$(BIN)/python benchmarks/template_quality.py
	$(BIN)/python benchmarks/ocr.py

# the speed targets that need the fixtures beside the project (../shared): screen comparison, export start to end,
# Mind2Web against pyarrow
bench-speed: $(VENV)/.installed fonts
	$(BIN)/python benchmarks/screen_change.py --ingest
	$(BIN)/python benchmarks/export.py --cli
	$(BIN)/python benchmarks/mind2web_speed.py

bench: bench-ingest bench-overlay bench-checks bench-speed

# Label Studio for `sftdata review` and tests/review/test_label_studio.py, in its own virtualenv (its pins clash
# with ours); about 1.5 minutes. The test skips without it unless SFTDATA_REQUIRE_LABEL_STUDIO=1.
.venv-ls/.installed:
	@echo "installing Label Studio into .venv-ls (about 1.5 minutes)"
	$(PYTHON) -m venv .venv-ls
	.venv-ls/bin/python -m pip install -q --upgrade pip
	.venv-ls/bin/python -m pip install -q 'label-studio>=1.23,<2' 'label-studio-sdk>=2.1,<3'
	@touch $@

labelstudio: .venv-ls/.installed

# The real clients of the export formats (tests/clients), one virtualenv each: their pins clash with ours and with
# each other. ui-tars's parser and Qwen-Agent (its runtime imports numpy, soundfile, tqdm and dateutil without declaring
# them); browser-use 0.13 and 0.1 (0.1.36 imports PIL without declaring it); app-use without its LLM and
# embedding stack (its controller, its App on an Appium driver and its agent models need only these; the full
# install pulls torch, about 6 GB).
$(CLIENT_VENVS)/.installed:
	@echo "installing the formats' clients into $(CLIENT_VENVS) (four virtualenvs: 2-4 minutes)"
	$(PYTHON) -m venv $(CLIENT_VENVS)/agents
	$(CLIENT_VENVS)/agents/bin/python -m pip install -q 'ui-tars==0.5.1' 'qwen-agent==0.0.34' numpy soundfile tqdm python-dateutil
	$(PYTHON) -m venv $(CLIENT_VENVS)/browser-use-0.13
	$(CLIENT_VENVS)/browser-use-0.13/bin/python -m pip install -q 'browser-use==0.13.14'
	$(PYTHON) -m venv $(CLIENT_VENVS)/browser-use-0.1
	$(CLIENT_VENVS)/browser-use-0.1/bin/python -m pip install -q 'browser-use==0.1.36' pillow
	$(PYTHON) -m venv $(CLIENT_VENVS)/app-use
	$(CLIENT_VENVS)/app-use/bin/python -m pip install -q --no-deps 'app-use==0.0.3'
	$(CLIENT_VENVS)/app-use/bin/python -m pip install -q pydantic appium-python-client 'langchain-core==0.3.63' \
	  openai pillow opencv-python-headless python-dotenv
	@touch $@

clients: $(CLIENT_VENVS)/.installed

# answers tried / accepted / read as meant / executed as recorded per format and client, and the steps each export
# dropped with their reasons, on the demo's data (the README's table)
clients-table: $(VENV)/.installed fonts $(CLIENT_VENVS)/.installed
	$(BIN)/python tests/clients/harness.py

clean:
	rm -rf $(DEMO) raw/sample benchmarks/out
