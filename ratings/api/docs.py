"""The API's docs page: the club's own page in the site's layout, drawn on the server from the
OpenAPI file, so it reads as every other page does (its landmarks, headings, colours and
language), without Swagger UI's script and its inaccessible widgets.

Each operation shows its address, whether it takes a token, its parameters, its body with the
examples of the OpenAPI file as a ``curl`` command to paste, and every status it answers; then
each shape with its fields, types and bounds. The OpenAPI file stays the one description: this
page only lays it out.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from ninja.openapi.docs import DocsBase

REF = "#/components/schemas/"


@dataclass
class FieldDoc:
    name: str
    type: SafeString
    required: bool
    about: str


@dataclass
class OperationDoc:
    anchor: str
    method: str
    path: str
    summary: str
    description: SafeString
    token: str  # whether it takes a token
    parameters: list[FieldDoc]
    body: SafeString | None
    examples: list[str] = field(default_factory=list)  # curl commands to paste
    responses: list[tuple[str, str, SafeString]] = field(default_factory=list)


@dataclass
class ShapeDoc:
    name: str
    fields: list[FieldDoc]


def _ref_link(ref: str) -> SafeString:
    name = ref.removeprefix(REF)
    return format_html('<a href="#shape-{}">{}</a>', name, name)


def _branches(schema: dict) -> tuple[list[dict], bool]:
    """A schema's alternatives (``anyOf``), and whether null is one of them."""
    options = schema.get("anyOf") or schema.get("oneOf") or [schema]
    kept = [option for option in options if option.get("type") != "null"]
    return kept, len(kept) < len(options)


def type_html(schema: dict) -> SafeString:
    """A value's type as a reader says it: ``integer``, ``list of SeatIn`` (linked to its shape),
    ``string (date-time) or null``."""
    options, nullable = _branches(schema)
    parts = []
    for option in options:
        if "$ref" in option:
            parts.append(_ref_link(option["$ref"]))
        elif option.get("type") == "array":
            items = option.get("items") or {}
            parts.append(format_html("{} {}", _("list of"), type_html(items) if items else "any"))
        elif "format" in option:
            parts.append(format_html("{} ({})", option.get("type", "string"), option["format"]))
        else:
            parts.append(escape(option.get("type", "any")))
    if nullable:
        parts.append(mark_safe("null"))
    return mark_safe(f" {escape(_('or'))} ".join(parts))


def bounds_text(schema: dict) -> str:
    """A value's bounds and default in words, from the schema and its non-null branch."""
    merged = dict(schema)
    for option in _branches(schema)[0]:
        merged = {**option, **merged}
    said = []
    low, high = merged.get("minimum"), merged.get("maximum")
    if low is not None and high is not None:
        said.append(_("from %(low)s to %(high)s") % {"low": low, "high": high})
    elif low is not None:
        said.append(_("at least %(low)s") % {"low": low})
    elif high is not None:
        said.append(_("at most %(high)s") % {"high": high})
    if "maxLength" in merged:
        limit = merged["maxLength"]
        said.append(
            ngettext("at most %(limit)s character", "at most %(limit)s characters", limit)
            % {"limit": limit}
        )
    if "maxItems" in merged:
        limit = merged["maxItems"]
        said.append(
            ngettext("at most %(limit)s item", "at most %(limit)s items", limit) % {"limit": limit}
        )
    if "pattern" in merged:
        said.append(_("of the pattern %(pattern)s") % {"pattern": merged["pattern"]})
    if "enum" in merged:
        said.append(_("one of %(values)s") % {"values": ", ".join(map(str, merged["enum"]))})
    if "default" in merged and merged["default"] not in (None, [], ""):
        said.append(_("default %(value)s") % {"value": json.dumps(merged["default"])})
    description = merged.get("description", "")
    return "; ".join([description, *said] if description else said)


def prose(text: str) -> SafeString:
    """A docstring as the page shows it: ``code`` as code, the rest escaped."""
    return mark_safe(re.sub(r"``(.+?)``", r"<code>\1</code>", escape(" ".join(text.split()))))


def _fields(schema: dict) -> list[FieldDoc]:
    required = set(schema.get("required", ()))
    return [
        FieldDoc(name, type_html(value), name in required, bounds_text(value))
        for name, value in schema.get("properties", {}).items()
    ]


def example_json(example: dict, shape: dict) -> str:
    """An example body as a developer would write it: its fields in the shape's order (the
    OpenAPI file's examples come with their keys sorted), one to a line, each item of a list on
    a line of its own."""
    order = list(shape.get("properties", {}))
    names = sorted(example, key=lambda name: order.index(name) if name in order else len(order))

    def value(item: Any) -> str:
        if isinstance(item, list) and item:
            lines = ",\n".join("    " + json.dumps(each, ensure_ascii=False) for each in item)
            return f"[\n{lines}\n  ]"
        return json.dumps(item, ensure_ascii=False)

    lines = ",\n".join(f"  {json.dumps(name)}: {value(example[name])}" for name in names)
    return f"{{\n{lines}\n}}"


def _curl(base: str, method: str, path: str, body: str) -> str:
    quoted = body.replace("'", "'\\''")  # inside the shell's single quotes
    return (
        f"curl -s -X {method} {base}{path} \\\n"
        '  -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json" \\\n'
        f"  -d '{quoted}'"
    )


def _operation(base: str, path: str, method: str, operation: dict, shapes: dict) -> OperationDoc:
    parameters = operation.get("parameters", [])
    # The address with each path parameter's example filled in, as a developer would send it.
    filled = path
    for parameter in parameters:
        examples = parameter.get("examples") or parameter["schema"].get("examples") or []
        if parameter["in"] == "path" and examples:
            filled = filled.replace("{" + parameter["name"] + "}", str(examples[0]))
    body = examples = None
    content = operation.get("requestBody", {}).get("content", {}).get("application/json")
    if content:
        ref = content["schema"]["$ref"]
        body, shape = _ref_link(ref), shapes[ref.removeprefix(REF)]
        examples = [
            _curl(base, method.upper(), filled, example_json(example, shape))
            for example in shape.get("examples", [])
        ]
    security = operation.get("security", [])
    return OperationDoc(
        anchor=operation["operationId"],
        method=method.upper(),
        path=path,
        summary=operation.get("summary", ""),
        description=prose(operation.get("description", "")),
        token=(
            _("No token is needed, unless the club is private.")
            if {} in security
            else _("A token is needed.")
        ),
        parameters=[
            FieldDoc(
                parameter["name"],
                type_html(parameter["schema"]),
                parameter.get("required", False),
                bounds_text(parameter["schema"]),
            )
            for parameter in parameters
        ],
        body=body,
        examples=examples or [],
        responses=[
            (
                status,
                response.get("description", ""),
                type_html(response["content"]["application/json"]["schema"])
                if "content" in response
                else mark_safe(""),
            )
            for status, response in sorted(operation.get("responses", {}).items())
        ],
    )


def page_context(request: HttpRequest, schema: dict) -> dict:
    """The page's sections from the OpenAPI ``schema``: its operations by tag, then its shapes."""
    base = request.build_absolute_uri("/").rstrip("/")
    shapes = schema.get("components", {}).get("schemas", {})
    groups: dict[str, list[OperationDoc]] = {}
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            tag = (operation.get("tags") or ["api"])[0]
            groups.setdefault(tag, []).append(_operation(base, path, method, operation, shapes))
    return {
        "info": schema["info"],
        "description": prose(schema["info"].get("description", "")),
        "groups": groups,
        "shapes": [ShapeDoc(name, _fields(shape)) for name, shape in shapes.items()],
    }


class ClubDocs(DocsBase):
    """ninja's docs page (``docs_url``), drawn as a page of the site."""

    def render_page(self, request: HttpRequest, api, **kwargs: Any) -> HttpResponse:
        schema = api.get_openapi_schema(path_params=kwargs)
        context = page_context(request, schema)
        context["openapi_url"] = self.get_openapi_url(api, kwargs)
        context["tokens_url"] = reverse("ratings:api_tokens")
        return render(request, "ratings/api_docs.html", context)
