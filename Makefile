# ddz-tools: `make run` runs the bundled examples, `make test` the tests,
# `make bench` the benchmarks, `make docs` the documentation's examples.  Each creates .venv
# and installs the package.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
DDZ := $(VENV)/bin/ddz
STAMP := $(VENV)/.installed-stamp

.PHONY: run test test-slow test-browser bench peers docs model puzzles clean

# tests/analysis/test_agents.py plays our agents in RLCard's and DouZero's harnesses: both are installed
# --no-deps (DouZero declares torch, which those harnesses do not need; an extra cannot say that).
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test,report]'
	$(PY) -m pip install -q --no-deps douzero rlcard termcolor
	touch $(STAMP)

run: $(STAMP)
	@mkdir -p out
	$(PY) -m ddz_tools.warmup --jobs 2
	$(DDZ) moves --file data/hands.txt
	$(DDZ) classify 333444555666 --rules douzero
	$(DDZ) decompose --file data/hands.txt
	$(DDZ) solve --file data/puzzles.jsonl --all
	$(DDZ) solve --landlord 4889D --farmer1 59QK --farmer2 3467A --to-move landlord --after 7 --by farmer2
	$(DDZ) simulate --games 2000 --policy heuristic --seed 1 --out out/selfplay.jsonl
	$(DDZ) decompose 33344455566677788XXDDQQQQQQ --rules four
	$(DDZ) simulate --games 200 --rules four --policy heuristic --seed 1 --out out/four_selfplay.jsonl
	$(DDZ) replay data/sample_games.jsonl data/botzone_sample_log.json data/happy_games.jsonl data/four_games.jsonl
	$(DDZ) bid 34456789TJQKA22XD --seat first --seed 1
	$(DDZ) bid 3455789TJQKKA222D --seat third --before pass,1 --seed 1
	$(DDZ) bid 3345566789TJQKA2D --rules happy --decide double --bottom 22X --base 2 --seed 1
	$(DDZ) bid 2222XDAAK --rules happy --decide show --stage deal --seed 1
	$(DDZ) advise --hand 33JJQK2 --unseen 4455A
	$(DDZ) advise --record data/sample_games.jsonl --move 3 --seed 1
	# The corpus holds deliberately broken records: analyze reports them and exits 3 (bad records
	# skipped; 1 would be a bug).
	$(DDZ) analyze data/analysis_corpus/selfplay.jsonl data/analysis_corpus/deals.pkl \
		data/analysis_corpus/botzone_game.json out/selfplay.jsonl --out out/analysis.jsonl || [ $$? -eq 3 ]
	# A report of the bundled games (bad_games.jsonl holds broken records: exit 3); open
	# out/report/index.html in a browser.  A smaller solver budget than the default keeps it quick.
	$(DDZ) report data/sample_games.jsonl data/botzone_sample_log.json data/happy_games.jsonl \
		data/bad_games.jsonl --out out/report --force --review-nodes 20000 || [ $$? -eq 3 ]

# The kernels are compiled first in two processes at once (a fresh machine compiles for minutes;
# the tests then load them from the cache), then the tests run in TEST_JOBS processes.
TEST_JOBS ?= 2
test: $(STAMP)
	$(PY) -m ddz_tools.warmup --jobs 2
	$(PY) -m pytest -n $(TEST_JOBS)

test-slow: $(STAMP)
	$(PY) -m pytest -m slow

# The report's pages rendered in headless Chromium (Debian's package).
test-browser: $(STAMP)
	command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium)
	$(PY) -m pytest -m browser tests/analysis/test_report.py tests/test_docs_charts.py

peers: $(STAMP)
	$(PY) -m pip install -q --no-deps douzero rlcard doudizhu-resolver termcolor

# Every benchmark but the bid evaluator's calibration study (about 20 minutes:
# $(PY) benchmarks/bid_validation.py --deals 5000 --samples 500 --seed 1).
bench: peers
	$(PY) benchmarks/movegen.py
	$(PY) benchmarks/decompose.py
	$(PY) benchmarks/solve.py
	$(PY) benchmarks/selfplay.py
	$(PY) benchmarks/replay.py
	$(PY) benchmarks/bid.py
	$(PY) benchmarks/analyze.py
	$(PY) benchmarks/review.py
	$(PY) benchmarks/laizi.py
	$(PY) benchmarks/solve.py --sets p2-10,p3-6 --count 30 --rules laizi --time-limit 30
	$(PY) benchmarks/double_validation.py --deals 1000 --samples 300 --seed 1 --timed 40
	# The advisor's strength runs (strength, rlcard) take about 25 minutes each: see docs/benchmarks.md.
	$(PY) benchmarks/advise.py speed --views 30
	# The ladder's cheap pairs; its advisor and oracle pairs take longer: see docs/benchmarks.md.
	$(PY) benchmarks/ladder.py --pairs heuristic:random,heuristic:rule,rule:random --deals 200
	$(PY) benchmarks/playermodel.py --games 300 --seed 2 --rlcard 300 --rlcard-seed 101

# Rerun every console example of README.md and docs/*.md, rewrite those whose output changed
# (`tests/test_docs.py --update --all` refreshes their times too), and copy the headline figures of
# docs/benchmarks.md into README.md (tests/test_docs.py checks both), and write the table of which
# decision each variant has into docs/rules.md (tests/variants/test_variants.py checks it).
docs: $(STAMP)
	$(PY) tests/test_docs.py --update
	$(PY) tests/variants/test_variants.py --update

# Fit the model of the other players on self-play of every variant (about 10 minutes on 2 cores)
# and write ddz_tools/engines/playermodel/weights.json; its figures: benchmarks/playermodel.py.
model: $(STAMP)
	$(PY) -m ddz_tools.engines.playermodel --fit --games 1000 --seed 1

# The puzzle collection in data/puzzles/ (docs/puzzles.md): resumable, so a stopped run goes on.
puzzles: $(STAMP)
	$(DDZ) puzzles find --from data/sample_games.jsonl --from data/happy_games.jsonl \
		--from data/botzone_sample_log.json --games 13000 --rules standard --seed 1 \
		--out data/puzzles/classic.jsonl --resume
	$(DDZ) puzzles find --games 3000 --rules laizi --seed 1 --out data/puzzles/laizi.jsonl --resume
	$(DDZ) puzzles find --games 1000 --rules tiandi --seed 1 --out data/puzzles/tiandi.jsonl --resume
	$(DDZ) puzzles find --games 3000 --rules four --seed 1 --max-cards 16 --max-total 56 \
		--out data/puzzles/four.jsonl --resume
	$(DDZ) puzzles rate data/puzzles/classic.jsonl data/puzzles/laizi.jsonl data/puzzles/tiandi.jsonl \
		data/puzzles/four.jsonl --in-place --seed 1

clean:
	rm -rf $(VENV) build *.egg-info
