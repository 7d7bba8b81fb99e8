"""deploy/: the manifests parse, and every file, port and probe they name exists."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from gateway.app import create_app
from gateway.config import skins
from gateway.config.settings import Settings
from tests.support.cluster import required_binary

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


def _documents(path: Path) -> list[dict[str, Any]]:
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc]


def _gateway_routes() -> set[str]:
    app = create_app(Settings(production=False, secret_key="x"))
    return {route.path for route in app.site.routes}


def test_every_manifest_parses_with_a_kind() -> None:
    manifests = sorted((DEPLOY / "k8s").glob("*.yaml"))
    kinds = {doc["kind"] for path in manifests for doc in _documents(path)}
    assert kinds >= {"Deployment", "Service", "HorizontalPodAutoscaler", "PodDisruptionBudget", "ConfigMap", "Secret"}


def test_probes_ports_and_volumes_line_up() -> None:
    deployment = _documents(DEPLOY / "k8s" / "deployment.yaml")[0]
    pod = deployment["spec"]["template"]["spec"]
    container = pod["containers"][0]
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    assert ports == {"http": 8000, "admin": 9100}
    assert "--port" in container["args"] and container["args"][container["args"].index("--port") + 1] == "8000"
    routes = _gateway_routes()
    for probe in ("readinessProbe", "livenessProbe"):
        get = container[probe]["httpGet"]
        assert get["port"] in ports and get["path"] in routes
    assert container["readinessProbe"]["httpGet"]["path"] == "/bff/ready"
    assert container["livenessProbe"]["httpGet"]["path"] == "/bff/health"
    mounts = {m["name"]: m["mountPath"] for m in container["volumeMounts"]}
    env = {e["name"]: e.get("value") for e in container["env"]}
    assert env["SKINS_FILE"].startswith(mounts["skins"])
    config_map = _documents(DEPLOY / "k8s" / "configmap-skins.yaml")[0]
    volume = next(v for v in pod["volumes"] if v["name"] == "skins")
    assert volume["configMap"]["name"] == config_map["metadata"]["name"]
    assert env["SKINS_FILE"].endswith("/" + next(iter(config_map["data"])))
    secret = _documents(DEPLOY / "k8s" / "secret.example.yaml")[0]
    assert container["envFrom"][0]["secretRef"]["name"] == secret["metadata"]["name"]
    assert set(secret["stringData"]) == {"SECRET_KEY", "REDIS_URL", "ADMIN_TOKEN"}
    assert env["ADMIN_PORT"] == str(ports["admin"])
    drain = float(env["DRAIN_DELAY_S"]) + float(env["DRAIN_TIMEOUT_S"])
    assert pod["terminationGracePeriodSeconds"] > drain, "the kubelet waits for the whole drain"


def test_service_hpa_and_pdb_select_the_deployment() -> None:
    deployment = _documents(DEPLOY / "k8s" / "deployment.yaml")[0]
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    service = _documents(DEPLOY / "k8s" / "service.yaml")[0]
    assert service["spec"]["selector"] == labels
    assert service["spec"]["ports"][0]["targetPort"] == "http"
    assert all(port["targetPort"] != "admin" for port in service["spec"]["ports"]), "the admin port stays private"
    hpa = _documents(DEPLOY / "k8s" / "hpa.yaml")[0]
    assert hpa["spec"]["scaleTargetRef"]["name"] == deployment["metadata"]["name"]
    pdb = _documents(DEPLOY / "k8s" / "pdb.yaml")[0]
    assert pdb["spec"]["selector"]["matchLabels"] == labels
    assert pdb["spec"]["minAvailable"] < hpa["spec"]["minReplicas"]


def test_the_configmap_skins_file_is_a_valid_skins_file() -> None:
    config_map = _documents(DEPLOY / "k8s" / "configmap-skins.yaml")[0]
    parsed = skins.parse(__import__("tomllib").loads(config_map["data"]["skins.toml"]))
    assert parsed.all[0].id == "aurora"
    assert skins.load(DEPLOY / "compose.skins.toml").all[0].upstreams.api == "http://sandbox:8001"


def test_the_image_copies_files_that_exist() -> None:
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    sources = re.findall(r"^COPY (?!--from)(.+) \S+$", dockerfile, flags=re.M)
    assert sources
    for line in sources:
        for source in line.split():
            assert (ROOT / source).exists() or (ROOT / "spa" / source).exists(), source
    assert "USER casino" in dockerfile and "HEALTHCHECK" in dockerfile and "/bff/health" in dockerfile
    assert "EXPOSE 8000" in dockerfile


def test_compose_runs_two_gateways_redis_sandbox_and_a_balancer() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    assert set(services) == {"redis", "sandbox", "gateway-a", "gateway-b", "balancer"}
    for name in ("gateway-a", "gateway-b"):
        env = services[name]["environment"]
        assert env["REDIS_URL"].startswith("redis://redis:")
        source = services[name]["volumes"][0].split(":")[0]
        assert (DEPLOY / source).exists()
        assert services[name]["build"]["dockerfile"] == "deploy/Dockerfile"
    nginx = (DEPLOY / "nginx.conf").read_text()
    assert "gateway-a:8000" in nginx and "gateway-b:8000" in nginx
    assert services["balancer"]["volumes"][0].split(":")[0] == "./nginx.conf"


@pytest.mark.parametrize("peer", ["172.18.0.5", "10.1.2.3"])
def test_balancers_in_trusted_ranges_are_believed(peer: str) -> None:
    from gateway.http.clients import TrustedProxies

    settings = Settings(trusted_proxies=("172.16.0.0/12", "10.0.0.0/8"), secret_key="x")
    proxies = TrustedProxies(settings.trusted_proxies)
    assert proxies.trusts(peer)
    assert not proxies.trusts("203.0.113.9") and not proxies.trusts("not-an-ip")


# --- Prometheus and Grafana ---------------------------------------------------------------

ALERTS = DEPLOY / "prometheus" / "alerts.yaml"
DASHBOARD = DEPLOY / "grafana" / "casino-bff.json"


def _served_metrics() -> set[str]:
    """Every series name the admin listener's /metrics can serve (each family's samples)."""
    metrics = create_app(Settings(production=False, secret_key="x")).gateway.metrics
    suffixes = {
        "counter": ("_total", "_created"),
        "histogram": ("_bucket", "_sum", "_count", "_created"),
        "gauge": ("",),
    }
    families = [*metrics.registry.collect(), *metrics.measured.collect()]
    return {family.name + suffix for family in families for suffix in suffixes[family.type]}


def _dashboard_queries() -> list[str]:
    dashboard = json.loads(DASHBOARD.read_text())
    return [target["expr"] for panel in dashboard["panels"] for target in panel.get("targets", [])]


def test_the_alerts_and_the_dashboard_use_only_metrics_the_gateway_serves() -> None:
    rules = yaml.safe_load(ALERTS.read_text())["groups"][0]["rules"]
    assert {rule["alert"] for rule in rules} == {
        "BffUpstreamDown",
        "BffBreakerOpen",
        "BffErrorRateHigh",
        "BffLatencyP99High",
        "BffConfigRejected",
        "BffInstancesOnDifferentVersions",
        "BffSessionExpiredStorm",
        "BffSignInFailureStorm",
    }
    served = _served_metrics()
    for expression in [rule["expr"] for rule in rules] + _dashboard_queries():
        used = set(re.findall(r"\bbff_[a-z_]+", expression))
        assert used and used <= served, f"{sorted(used - served)} in {expression!r}"


def test_every_dashboard_panel_has_a_place_and_a_query(tmp_path: Path) -> None:
    dashboard = json.loads(DASHBOARD.read_text())
    charts = [panel for panel in dashboard["panels"] if panel["type"] != "row"]
    assert len(charts) >= 10 and all(panel["targets"] and panel["gridPos"]["w"] > 0 for panel in charts)
    assert len({panel["id"] for panel in dashboard["panels"]}) == len(dashboard["panels"])
    assert {v["name"] for v in dashboard["templating"]["list"]} == {"datasource", "skin"}


def test_the_dashboards_queries_are_valid_promql(tmp_path: Path) -> None:
    """promtool checks PromQL only in rules: each query becomes a recording rule."""
    queries = [q.replace("$__rate_interval", "5m").replace("$skin", ".*") for q in _dashboard_queries()]
    rules = {
        "groups": [
            {
                "name": "dashboard",
                "rules": [{"record": f"dashboard:query{n}", "expr": q} for n, q in enumerate(queries)],
            }
        ]
    }
    path = tmp_path / "dashboard-rules.yaml"
    path.write_text(yaml.safe_dump(rules))
    checked = subprocess.run(
        [required_binary("promtool", "REQUIRE_PROMTOOL"), "check", "rules", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
