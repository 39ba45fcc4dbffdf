"""deploy/: the files parse, are valid against the Kubernetes and Compose schemas, name only real
settings, and the environment example documents every one."""

import copy
import re
from pathlib import Path
from typing import Any

import jsonschema
import kubernetes_validate
import pytest
import yaml
from check_jsonschema.builtin_schemas import get_builtin_schema

from service.settings import Settings

ROOT = Path(__file__).parents[2]
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
SETTING = re.compile(r"\bMAUMAU_[A-Z_]*[A-Z]\b")
YAML_FILES = sorted([*DEPLOY.rglob("*.yml"), *DEPLOY.rglob("*.yaml")])
# kustomize's own file is no Kubernetes object: kubernetes-validate has no schema for it
MANIFESTS = [path for path in sorted(K8S.glob("*.yaml")) if path.name != "kustomization.yaml"]
# the newest Kubernetes whose schemas kubernetes-validate 1.37 ships; the manifests name no other
# (their kinds are apps/v1, batch/v1 and v1, stable for years)
KUBERNETES = "1.37"


def documents(path: Path) -> list[Any]:
    return [document for document in yaml.safe_load_all(path.read_text()) if document is not None]


def settings_read() -> set[str]:
    """Every MAUMAU_* variable service/settings.py reads (from the source, so none is missed)."""
    return set(SETTING.findall((ROOT / "service" / "settings.py").read_text()))


def documented() -> set[str]:
    lines = (DEPLOY / "maumau.env.example").read_text().splitlines()
    return {match.group(1) for line in lines if (match := re.match(r"#? ?(MAUMAU_[A-Z_]+)=", line))}


def k8s_kinds() -> dict[tuple[str, str], dict[str, Any]]:
    return {
        (document["kind"], document["metadata"]["name"]): document
        for path in sorted(K8S.glob("*.yaml"))
        if path.name != "kustomization.yaml"
        for document in documents(path)
    }


def compose() -> dict[str, Any]:
    return documents(DEPLOY / "docker-compose.yml")[0]


def kubernetes_refusal(document: dict[str, Any]) -> str | None:
    """Why the Kubernetes schemas refuse the object, None if they take it (strict: unknown fields fail)."""
    try:
        kubernetes_validate.validate(document, KUBERNETES, strict=True)
    except kubernetes_validate.ValidationError as error:
        return f"{'.'.join(map(str, error.path))}: {error.message}"
    return None


def compose_refusals(document: dict[str, Any]) -> list[str]:
    """Why the Compose Specification's JSON schema refuses the file; read offline from the copy
    check-jsonschema ships (vendor/compose-spec.json, from the compose-spec repository)."""
    schema = get_builtin_schema("vendor.compose-spec")
    validator = jsonschema.validators.validator_for(schema)(schema)
    return [f"{error.json_path}: {error.message}" for error in validator.iter_errors(document)]


def test_there_are_yaml_files_and_every_one_parses():
    assert len(YAML_FILES) >= 9
    for path in YAML_FILES:
        assert documents(path), path


@pytest.mark.parametrize("path", MANIFESTS, ids=str)
def test_every_kubernetes_manifest_is_valid_against_the_kubernetes_schemas(path):
    for document in documents(path):
        assert kubernetes_refusal(document) is None, path


def test_the_kubernetes_check_refuses_an_unknown_field_and_a_wrong_type():
    misspelt = copy.deepcopy(documents(K8S / "api.yaml")[0])
    (container,) = misspelt["spec"]["template"]["spec"]["containers"]
    container["livenessprobe"] = container.pop("livenessProbe")
    assert "'livenessprobe' was unexpected" in (kubernetes_refusal(misspelt) or "")
    wrong = copy.deepcopy(documents(K8S / "api.yaml")[0])
    wrong["spec"]["replicas"] = "two"
    assert (kubernetes_refusal(wrong) or "").startswith("spec.replicas: 'two' is not of type")


def test_the_compose_file_is_valid_against_the_compose_specification():
    assert compose_refusals(compose()) == []


def test_the_compose_check_refuses_an_unknown_field_and_a_wrong_type():
    misspelt = copy.deepcopy(compose())
    misspelt["services"]["beat"]["comand"] = misspelt["services"]["beat"].pop("command")
    assert any("'comand' was unexpected" in refusal for refusal in compose_refusals(misspelt))
    wrong = copy.deepcopy(compose())
    wrong["services"]["beat"]["restart"] = 5
    assert "$.services.beat.restart: 5 is not of type 'string'" in compose_refusals(wrong)


def test_the_environment_example_names_every_setting_and_no_other():
    fields = {f"MAUMAU_{name.upper()}" for name in Settings.__struct_fields__}
    assert fields <= settings_read(), "a Settings field read under another name: say so in this test"
    missing = sorted(settings_read() - documented())
    assert missing == [], f"document these in deploy/maumau.env.example: {missing}"
    assert sorted(documented() - settings_read()) == []


@pytest.mark.parametrize("path", [DEPLOY / "docker-compose.yml", *sorted(K8S.glob("*.yaml"))], ids=str)
def test_the_deploy_files_set_only_settings_that_exist(path):
    unknown = sorted(set(SETTING.findall(path.read_text())) - settings_read())
    assert unknown == []


def test_every_kubernetes_manifest_is_named_and_the_kustomization_lists_existing_files():
    for (kind, name), document in k8s_kinds().items():
        assert document["apiVersion"] and kind and name.startswith("maumau")
    kustomization = documents(K8S / "kustomization.yaml")[0]
    assert all((K8S / resource).is_file() for resource in kustomization["resources"])
    assert "secret.example.yaml" not in kustomization["resources"]  # its placeholders are not secrets


def test_the_deployments_run_every_process_from_one_image_with_the_shared_settings():
    found = k8s_kinds()
    deployments = {name: doc for (kind, name), doc in found.items() if kind == "Deployment"}
    assert set(deployments) == {"maumau-api", "maumau-worker", "maumau-beat", "maumau-projections"}
    for name, document in deployments.items():
        spec = document["spec"]["template"]["spec"]
        for container in [*spec.get("initContainers", []), *spec["containers"]]:
            assert container["image"] == "maumau:latest", name
            sources = {next(iter(source.values()))["name"] for source in container["envFrom"]}
            assert sources == {"maumau"}, name
    assert deployments["maumau-beat"]["spec"]["replicas"] == 1
    assert deployments["maumau-beat"]["spec"]["strategy"]["type"] == "Recreate"
    assert found[("Job", "maumau-db-init")]["spec"]["template"]["spec"]["containers"][0]["command"] == [
        "maumau",
        "db",
        "init",
    ]


def test_the_api_is_probed_for_liveness_on_health_and_readiness_on_ready_behind_a_service():
    found = k8s_kinds()
    (api,) = found[("Deployment", "maumau-api")]["spec"]["template"]["spec"]["containers"]
    ports = {port["name"]: port["containerPort"] for port in api["ports"]}
    assert api["livenessProbe"]["httpGet"] == {"path": "/health", "port": "http"}
    assert api["readinessProbe"]["httpGet"] == {"path": "/ready", "port": "http"}
    assert ports == {"http": 8000} and "--workers" in " ".join(api["command"])
    service = found[("Service", "maumau-api")]["spec"]
    assert service["selector"] == found[("Deployment", "maumau-api")]["spec"]["selector"]["matchLabels"]
    assert service["ports"][0]["targetPort"] == "http"


def test_compose_runs_db_init_once_then_two_apis_two_workers_one_beat_and_the_projections():
    services = compose()["services"]
    assert set(services) == {
        "postgres",
        "redis",
        "db-init",
        "api-1",
        "api-2",
        "worker-1",
        "worker-2",
        "beat",
        "projections",
    }
    ours = {name: service for name, service in services.items() if name not in ("postgres", "redis")}
    for name, service in ours.items():
        assert service["image"] == "maumau:latest", name
        assert (ROOT / "deploy" / service["build"]["dockerfile"].removeprefix("deploy/")).is_file()
        if name != "db-init":
            assert service["depends_on"]["db-init"] == {"condition": "service_completed_successfully"}
    assert services["db-init"]["command"] == ["maumau", "db", "init"]
    for api in ("api-1", "api-2"):
        assert "uvicorn --factory service.app:create_app" in services[api]["command"][-1]
        assert "--workers 1" in services[api]["command"][-1]
    for worker in ("worker-1", "worker-2"):
        assert "maumau worker" in services[worker]["command"][-1]
    assert services["beat"]["command"] == ["maumau", "beat"]
    assert services["projections"]["command"] == ["maumau", "projections", "run"]


def test_the_dockerfile_copies_files_that_exist():
    copied = re.findall(r"^COPY (?!--from)(.+) \S+$", (DEPLOY / "Dockerfile").read_text(), re.MULTILINE)
    sources = [source for line in copied for source in line.split()]
    assert sources and all((ROOT / source).exists() for source in sources), sources
