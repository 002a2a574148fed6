"""The markup builder of the board renderers: :mod:`subtable.markup`, below the web and the
lab, which both draw with it (this path stays for the renderers and plug-ins)."""

from subtable.markup import (
    SVG_NS,
    TARGET_CLASS,
    Element,
    add_class,
    children_html,
    el,
    label,
    make,
    name_buttons,
    num,
    svg_root,
    target,
    title,
    to_html,
    to_svg,
    wrap,
)

__all__ = [
    "SVG_NS",
    "TARGET_CLASS",
    "Element",
    "add_class",
    "children_html",
    "el",
    "label",
    "make",
    "name_buttons",
    "num",
    "svg_root",
    "target",
    "title",
    "to_html",
    "to_svg",
    "wrap",
]
