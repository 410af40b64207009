"""One self-contained HTML page: headings, text, tables and figures embedded as base64 PNG.

Follows: ARCHITECTURE.md §6. The page references no file, script, font or style sheet outside
itself, so it can be mailed or attached to an issue as it is.
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Section", "figure_html", "render_page", "table_html", "text_html"]

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1200px; color: #222; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0 1.5em;
        display: block; max-width: 100%; overflow-x: auto; }
th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: right; }
th { background: #f3f3f3; } td:first-child, th:first-child { text-align: left; }
figure { margin: 0.5em 0 1.5em; } figcaption { font-size: 0.85em; color: #555; }
img { max-width: 100%; } .note { color: #666; font-size: 0.9em; }
pre { background: #f7f7f7; padding: 0.5em; overflow-x: auto; font-size: 0.8em; }
"""


@dataclass(slots=True)
class Section:
    """A heading and its HTML blocks (from :func:`table_html`, :func:`figure_html`, ...)."""

    title: str
    blocks: list[str] = field(default_factory=list)


def text_html(text: str, *, note: bool = False, pre: bool = False) -> str:
    """A paragraph (or preformatted block) of escaped text."""
    if pre:
        return f"<pre>{html.escape(text)}</pre>"
    cls = ' class="note"' if note else ""
    return f"<p{cls}>{html.escape(text)}</p>"


def table_html(df: Any, *, float_format: str = "{:.4g}", index: bool = True,
               caption: str = "") -> str:
    """An HTML table of a pandas DataFrame; floats formatted with ``float_format``."""
    body = df.to_html(index=index, escape=True, na_rep="–", border=0,
                      float_format=lambda v: float_format.format(v))
    cap = f"<p class=\"note\">{html.escape(caption)}</p>" if caption else ""
    return cap + body


def figure_html(fig: Any, caption: str = "", *, dpi: int = 110) -> str:
    """A matplotlib figure as an ``<img>`` with a base64 PNG ``data:`` URI."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    cap = f"<figcaption>{html.escape(caption)}</figcaption>" if caption else ""
    alt = html.escape(caption or "figure", quote=True)
    return f'<figure><img alt="{alt}" src="data:image/png;base64,{data}">{cap}</figure>'


def render_page(title: str, sections: Sequence[Section], *, subtitle: str = "") -> str:
    """The whole page as one string."""
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head><body>",
             f"<h1>{html.escape(title)}</h1>"]
    if subtitle:
        parts.append(f'<p class="note">{html.escape(subtitle)}</p>')
    for sec in sections:
        anchor = html.escape(sec.title.lower().replace(" ", "-"), quote=True)
        parts.append(f'<h2 id="{anchor}">{html.escape(sec.title)}</h2>')
        parts.extend(sec.blocks)
    parts.append("</body></html>")
    return "\n".join(parts)
