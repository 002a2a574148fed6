"""Small, safe markup helpers (SVG and HTML): the one builder of the board renderers, the
turning chart and the lab's reports.

Markup is built as :mod:`xml.etree.ElementTree` elements, so every text and
attribute value is escaped on output: never concatenate untrusted text into
markup. Typical use::

    root = svg_root(400, 300, label=tr("…"))
    box = el(root, "rect", x=10, y=10, width=50, height=40, cls="room")
    title(box, tr("…"))
    target(box, [a.id for a in actions], tr("…"))
    markup = to_svg(root)

Attribute keyword names: ``cls`` becomes ``class``, a trailing ``_`` is dropped
(``for_``), other ``_`` become ``-`` (``font_size`` → ``font-size``,
``data_actions`` → ``data-actions``); ``None`` values are left out, numbers are
written compactly (``12``, ``12.5``).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping
from typing import Any

SVG_NS = "http://www.w3.org/2000/svg"
#: the CSS class of every clickable element
TARGET_CLASS = "target"

Element = ET.Element


def num(value: float) -> str:
    """A number as an attribute value: ``12``, ``12.5``, ``0.33``."""
    if isinstance(value, int) or float(value).is_integer():
        return str(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _attr_name(key: str) -> str:
    if key == "cls":
        return "class"
    return key.rstrip("_").replace("_", "-")


def _attr_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return num(value)
    return str(value)


def _set(elem: Element, attrs: Mapping[str, object]) -> None:
    for key, value in attrs.items():
        if value is not None:
            elem.set(_attr_name(key), _attr_value(value))


def make(tag: str, text: str | None = None, /, **attrs: Any) -> Element:
    """A detached element ``tag`` with ``attrs`` and optional ``text``."""
    elem = ET.Element(tag)
    _set(elem, attrs)
    if text is not None:
        elem.text = text
    return elem


def el(parent: Element, tag: str, text: str | None = None, /, **attrs: Any) -> Element:
    """A child ``tag`` of ``parent`` with ``attrs`` and optional ``text``."""
    elem = ET.SubElement(parent, tag)
    _set(elem, attrs)
    if text is not None:
        elem.text = text
    return elem


def add_class(elem: Element, *classes: str) -> Element:
    """Add CSS classes to ``elem`` (kept once each, in order)."""
    have = (elem.get("class") or "").split()
    for c in classes:
        for part in c.split():
            if part not in have:
                have.append(part)
    elem.set("class", " ".join(have))
    return elem


def title(elem: Element, text: str) -> Element:
    """Give an SVG element a tooltip/accessible name: a ``<title>`` first child."""
    t = ET.Element("title")
    t.text = text
    elem.insert(0, t)
    return elem


def label(elem: Element, text: str) -> Element:
    """Set ``aria-label`` (and a ``<title>`` for SVG tooltips) on ``elem``."""
    elem.set("aria-label", text)
    return title(elem, text)


def target(elem: Element, action_ids: Iterable[int], text: str) -> Element:
    """Make ``elem`` a keyboard-reachable button standing for ``action_ids``.

    Sets ``data-actions`` (ids, space-separated, ascending), ``role="button"``,
    ``tabindex="0"``, ``aria-label`` and the class :data:`TARGET_CLASS`.
    """
    ids = sorted(set(action_ids))
    elem.set("data-actions", " ".join(str(i) for i in ids))
    elem.set("role", "button")
    elem.set("tabindex", "0")
    add_class(elem, TARGET_CLASS)
    label(elem, text)
    return elem


def svg_root(width: float, height: float, /, **attrs: Any) -> Element:
    """An ``<svg>`` that scales: a ``viewBox`` of ``width`` × ``height``, no fixed size."""
    root = make(
        "svg",
        xmlns=SVG_NS,
        viewBox=f"0 0 {num(width)} {num(height)}",
        preserveAspectRatio="xMidYMid meet",
    )
    _set(root, attrs)
    return root


def _visible_text(elem: Element) -> str:
    """The text an element shows (tooltips' ``<title>`` left out), spaces normalised."""
    parts: list[str] = [elem.text or ""] if elem.tag != "title" else []
    for child in elem:
        if child.tag != "title":
            parts.append(_visible_text(child))
        parts.append(child.tail or "")
    return " ".join(" ".join(parts).split())


def name_buttons(root: Element) -> Element:
    """Make each button's accessible name start with the text it shows.

    Speech-input users say what they see ("click 8 Equipment Stores"), so the name
    must contain the visible text (WCAG 2.5.3, axe's ``label-content-name-mismatch``);
    a ``<title>`` inside a button would count as text too, so buttons keep only the name.
    """
    for elem in root.iter():
        name = elem.get("aria-label")
        if elem.get("role") != "button" or not name:
            continue
        # a button's tooltip would count as its text: its name says the same
        for tip in [child for child in elem if child.tag == "title"]:
            elem.remove(tip)
        # separate <text> elements are separate words (a trailing space is not drawn)
        for text in elem.iter("text"):
            if text.text and not text.text.endswith(" "):
                text.text += " "
        shown = _visible_text(elem)
        if shown and shown.casefold() not in name.casefold():
            elem.set("aria-label", f"{shown} — {name}")
    return root


def to_svg(root: Element) -> str:
    """The markup of an SVG element tree (UTF-8 text, no XML declaration)."""
    return ET.tostring(name_buttons(root), encoding="unicode", method="xml")


def to_html(root: Element) -> str:
    """The markup of an HTML element tree (void elements written as HTML)."""
    return ET.tostring(name_buttons(root), encoding="unicode", method="html")


def children_html(root: Element) -> str:
    """The markup of ``root``'s children, without ``root`` itself (a list's items)."""
    name_buttons(root)
    return "".join(ET.tostring(child, encoding="unicode", method="html") for child in root)


def wrap(root: Element, *inner: str) -> str:
    """The HTML markup of ``root`` (not a void element) holding, after its own children,
    markup already built (and escaped) by other builders: a board's parts, a game's panels."""
    shell = to_html(root)
    cut = shell.rindex("</")
    return shell[:cut] + "".join(inner) + shell[cut:]
