"""Every message the pages show, found where they are written: the templates and service/web/words.py."""

import ast
from pathlib import Path

from service.web.render import TEMPLATES, environment

WORDS = Path(__file__).parents[2] / "service" / "web" / "words.py"
NOT_TRANSLATED = {"apidocs.html"}  # the API's documentation page is in English, as the API is


def template_messages() -> set[str]:
    env = environment()
    found: set[str] = set()
    for path in sorted(TEMPLATES.glob("*.html")):
        if path.name in NOT_TRANSLATED:
            continue
        for _, function, message in env.extract_translations(path.read_text()):
            assert function == "_", f"{path.name}: {function}"
            # a message with values to fill in comes as (message, None)
            text = message[0] if isinstance(message, tuple) else message
            assert isinstance(text, str), f"{path.name}: a message must be a literal, not {message}"
            found.add(text)
    return found


def code_messages() -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(WORDS.read_text())):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_":
            first = node.args[0]
            assert isinstance(first, ast.Constant) and isinstance(first.value, str), ast.dump(node)
            found.add(first.value)
    return found


def all_messages() -> set[str]:
    return template_messages() | code_messages()
