"""Prints action.yml's composite steps as a reusable workflow, so that
actionlint (which reads workflows, not action metadata) checks them too: the
expressions against the declared inputs and step ids, the `uses:` inputs,
and every `run:` script with shellcheck. The inputs become `workflow_call`
inputs of the same names and defaults.

usage: python3 .ci/action_as_workflow.py action.yml > workflow.yml
"""

import sys

import yaml


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        action = yaml.safe_load(f)
    runs = action["runs"]
    if runs.get("using") != "composite":
        sys.exit(f"{sys.argv[1]}: not a composite action")
    inputs = {
        name: {
            "description": spec.get("description", ""),
            "required": bool(spec.get("required", False)),
            "type": "string",
            "default": str(spec.get("default", "")),
        }
        for name, spec in (action.get("inputs") or {}).items()
    }
    workflow = {
        "name": f"{action['name']} (action.yml as a workflow)",
        "on": {"workflow_call": {"inputs": inputs}},
        "permissions": {},
        "jobs": {
            "action": {
                "runs-on": "ubuntu-latest",
                "permissions": {"contents": "read"},
                "steps": runs["steps"],
            }
        },
    }
    yaml.safe_dump(workflow, sys.stdout, sort_keys=False, width=1000)


if __name__ == "__main__":
    main()
