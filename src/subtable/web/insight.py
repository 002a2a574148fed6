"""The fixed texts of the pages' learning parts — the lessons (``/learn``), the table's hint
button, where the game turned — in the reader's language; :func:`subtable.web.pages.page`
adds them to every page's ``s``."""

from __future__ import annotations

from subtable.i18n import Translator


def insight_strings(tr: Translator) -> dict[str, str]:
    """The learning parts' fixed texts, in ``tr``'s language."""
    return {
        "learn": tr("web.learn.nav"),
        "learn_title": tr("web.learn.title"),
        "learn_intro": tr("web.learn.intro"),
        "learn_all": tr("web.learn.all"),
        "learn_task": tr("web.learn.task"),
        "learn_options": tr("web.learn.options"),
        "learn_type": tr("web.learn.type"),
        "learn_try": tr("web.learn.try"),
        "learn_show": tr("web.learn.show"),
        "learn_again": tr("web.learn.again"),
        "learn_skip": tr("web.learn.skip"),
        "learn_next": tr("web.learn.next"),
        "learn_next_lesson": tr("web.learn.next_lesson"),
        "learn_rules": tr("web.learn.rules"),
        "learn_happened": tr("web.learn.happened"),
        "learn_failed": tr("web.learn.failed"),
        "hint_ask": tr("web.hint.ask"),
        "hint_thinking": tr("web.hint.thinking"),
        "hint_play": tr("web.hint.play"),
        "turning_heading": tr("lab.turning.heading"),
        "turning_computing": tr("web.turning.computing"),
        "turning_failed": tr("web.turning.failed"),
        "advice": tr("web.home.advice"),
        "advice_help": tr("web.home.advice_help"),
    }
