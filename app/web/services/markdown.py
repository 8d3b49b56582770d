"""Organisers' Markdown (challenge descriptions) made into HTML that is safe to put in a page.

markdown-it-py (CommonMark, with tables) renders it with raw HTML off and images as links;
nh3 (the Rust ``ammonia`` sanitiser)
then keeps only the tags below and http(s)/mailto links, each ``rel="nofollow noopener
noreferrer"``, so that a description can point to data, rules and papers but not run anything.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from functools import cache
from typing import Any

import nh3
from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.token import Token
from markupsafe import Markup

TAGS = {
    "a", "p", "br", "hr", "ul", "ol", "li", "em", "strong", "code", "pre", "blockquote",
    "h2", "h3", "h4", "table", "thead", "tbody", "tr", "th", "td",
}  # fmt: skip
ATTRIBUTES = {"a": {"href", "title"}, "ol": {"start"}, "th": {"align"}, "td": {"align"}}
URL_SCHEMES = {"http", "https", "mailto"}


@cache
def _parser() -> MarkdownIt:
    parser = MarkdownIt("commonmark", {"html": False}).enable("table")
    parser.add_render_rule("image", _image_as_link)
    return parser


def _image_as_link(self: Any, tokens: Sequence[Token], index: int, options: Any, env: Any) -> str:
    """An image becomes a link to it: pages load images from the board only (CSP img-src)."""
    token = tokens[index]
    source = str(token.attrGet("src") or "")
    label = self.renderInlineAsText(token.children or [], options, env) or source
    return f'<a href="{escapeHtml(source)}">{escapeHtml(label)}</a>'


def markdown_html(text: str | None) -> Markup:
    """The sanitised HTML of ``text`` (headings start at h2: the page's title is the h1)."""
    rendered = _parser().render(text or "")
    for level in (3, 2, 1):  # "# Data" becomes an h2 under the page's h1
        rendered = rendered.replace(f"<h{level}>", f"<h{level + 1}>").replace(
            f"</h{level}>", f"</h{level + 1}>"
        )
    return Markup(
        nh3.clean(
            rendered,
            tags=TAGS,
            attributes=ATTRIBUTES,
            url_schemes=URL_SCHEMES,
            link_rel="nofollow noopener noreferrer",
        )
    )


def markdown_text(text: str | None) -> str:
    """The words of ``text`` without markup (for summaries that get truncated)."""
    return " ".join(html.unescape(nh3.clean(_parser().render(text or ""), tags=set())).split())
