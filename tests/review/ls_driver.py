"""Drive a running Label Studio through label-studio-sdk as a reviewer would (run with .venv-ls's Python: the
SDK's pins may clash with the project's).

    python ls_driver.py BASE_URL API_KEY TASKS.json CONFIG.xml PLAN.json EXPORT.json

PLAN.json: a list of {"task": index into TASKS.json, "result": [Label Studio result objects]}. Prints one JSON
line: {"project": id, "tasks": [task ids], "annotations": [annotation ids]}.
"""
import json
import sys


def main(base_url, api_key, tasks_path, config_path, plan_path, export_path):
    from label_studio_sdk import LabelStudio  # here: pytest collects this file with the project's Python

    client = LabelStudio(base_url=base_url, api_key=api_key)
    with open(config_path, encoding="utf-8") as f:
        config = f.read()
    with open(tasks_path, encoding="utf-8") as f:
        tasks = json.load(f)
    with open(plan_path, encoding="utf-8") as f:
        plan = json.load(f)
    project = client.projects.create(title="sftdata review", label_config=config)
    imported = client.projects.import_tasks(id=project.id, request=tasks, return_task_ids=True)
    task_ids = list(imported.task_ids)
    annotations = []
    for entry in plan:
        ann = client.annotations.create(id=task_ids[entry["task"]], result=entry["result"], lead_time=3.5)
        annotations.append(ann.id)
    data = b"".join(client.projects.exports.download_sync(id=project.id, export_type="JSON"))
    with open(export_path, "wb") as f:
        f.write(data)
    print(json.dumps({"project": project.id, "tasks": task_ids, "annotations": annotations}))


if __name__ == "__main__":
    main(*sys.argv[1:7])
