"""Lighthouse on the player site's /home (mobile profile, simulated slow 4G and 4x CPU), as
`../shared/TOOLCHAIN.md` runs it offline against Debian's Chromium.

Starts the product (`python -m gateway --with-sandbox`, built SPA) on free ports, runs
Lighthouse ROUNDS times and reports the median of each score and metric. Run by
`make lighthouse`; writes bench/results/lighthouse.json.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support.stack import start_stack

HERE = Path(__file__).resolve().parent
LIGHTHOUSE = HERE / "lighthouse" / "node_modules" / ".bin" / "lighthouse"
RESULTS = HERE / "results"
ROUNDS = 3
PAGES = ("/home",)
METRICS = ("first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift",
           "speed-index")  # fmt: skip
CHROME_FLAGS = ("--headless=new --no-sandbox --disable-gpu --disable-quic --disable-background-networking "
                "--disable-component-update --disable-sync --no-first-run")  # fmt: skip


def run_once(url: str, out: Path) -> dict[str, Any]:
    subprocess.run(
        [str(LIGHTHOUSE), url, "--only-categories=performance,accessibility,best-practices", "--output=json",
         f"--output-path={out}", "--quiet", f"--chrome-flags={CHROME_FLAGS}"],
        check=True, env={"CHROME_PATH": "/usr/bin/chromium", "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    report = json.loads(out.read_text())
    return {
        "scores": {name: category["score"] for name, category in report["categories"].items()},
        "metrics": {name: report["audits"][name]["numericValue"] for name in METRICS},
        "lighthouse": report["lighthouseVersion"],
    }


def main() -> None:
    with tempfile.TemporaryDirectory() as workdir:
        stack = start_stack(Path(workdir), env={"GATEWAY_ENV": "development"})
        try:
            pages = {}
            for page in PAGES:
                runs = [run_once(stack.url + page, Path(workdir) / f"report-{n}.json") for n in range(ROUNDS)]
                pages[page] = {
                    "scores": {k: statistics.median(r["scores"][k] for r in runs) for k in runs[0]["scores"]},
                    "metrics_ms": {k: round(statistics.median(r["metrics"][k] for r in runs), 3) for k in METRICS},
                    "runs": runs,
                }
        finally:
            stack.stop()
    RESULTS.mkdir(exist_ok=True)
    result = {"profile": "mobile (default), simulated throttling", "rounds": ROUNDS, "pages": pages}
    (RESULTS / "lighthouse.json").write_text(json.dumps(result, indent=2) + "\n")
    for page, figures in pages.items():
        print(page, json.dumps(figures["scores"]), json.dumps(figures["metrics_ms"]))


if __name__ == "__main__":
    main()
