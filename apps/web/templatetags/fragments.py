"""`{% cached_fragment key %}…{% endcached_fragment %}`: a piece of a page rendered once per key.
`{% cached_piece key %}…{% endcached_piece %}`: the same for the small pieces inside a report
that a what-if preview leaves alone, kept in this process (apps.web.fragments.PIECES).

The key is computed by the view from everything the piece reads (apps/web/fragments.py), so
the same key always means the same HTML; a falsy key renders the piece as usual and keeps
nothing (a preview, a page with forms in the piece). Kept in the default cache (per process,
LocMem), for FRAGMENT_TIMEOUT_S at most. A piece with a form in it (a Finance queue row) is
kept with its CSRF token cut out and gets the response's own token back each time.
"""

from __future__ import annotations

import functools

from django import template
from django.core.cache import caches
from django.template import defaultfilters
from django.template.base import FilterExpression, NodeList, Parser, Token

from apps.web.fragments import PIECES

register = template.Library()

FRAGMENT_TIMEOUT_S = 600

#: Where a kept piece's CSRF token was (`<` is escaped in every value a template prints, so no
#: page text holds it).
CSRF_SLOT = "<rightsize-csrf-token-slot>"
#: Where a kept page's CSP nonce was (apps.web.page_cache), on the same grounds.
NONCE_SLOT = "<rightsize-csp-nonce-slot>"


class CachedFragmentNode(template.Node):
    def __init__(self, nodelist: NodeList, key: FilterExpression) -> None:
        self.nodelist = nodelist
        self.key = key

    def render(self, context: template.Context) -> str:
        # A missing key is None, never the string_if_invalid text (one key for every piece).
        key = self.key.resolve(context, ignore_failures=True)
        if not key:
            return self.nodelist.render(context)
        cache = caches["default"]
        token = context.get("csrf_token")
        html = cache.get(key)
        if html is None:
            html = self.nodelist.render(context)
            # A form's CSRF token is this response's own: kept as a slot, filled in each time.
            kept = html.replace(str(token), CSRF_SLOT) if token and str(token) in html else html
            cache.set(key, kept, FRAGMENT_TIMEOUT_S)
            return html
        if CSRF_SLOT in html:
            if not token:  # nothing to fill it with: draw the piece as it is
                return self.nodelist.render(context)
            html = html.replace(CSRF_SLOT, str(token))
        return html


@register.tag("cached_fragment")
def cached_fragment(parser: Parser, token: Token) -> CachedFragmentNode:
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError("{% cached_fragment key %} takes one key")
    nodelist = parser.parse(("endcached_fragment",))
    parser.delete_first_token()
    return CachedFragmentNode(nodelist, parser.compile_filter(bits[1]))


class CachedPieceNode(template.Node):
    def __init__(self, nodelist: NodeList, key: FilterExpression) -> None:
        self.nodelist = nodelist
        self.key = key

    def render(self, context: template.Context) -> str:
        key = self.key.resolve(context)
        if not key:
            return self.nodelist.render(context)
        html = PIECES.get(key)
        if html is None:
            html = self.nodelist.render(context)
            PIECES.put(key, html)
        return html


@register.tag("cached_piece")
def cached_piece(parser: Parser, token: Token) -> CachedPieceNode:
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError("{% cached_piece key %} takes one key")
    nodelist = parser.parse(("endcached_piece",))
    parser.delete_first_token()
    return CachedPieceNode(nodelist, parser.compile_filter(bits[1]))


@register.filter(is_safe=True, needs_autoescape=True)
def urlizetrunc_kept(value: object, limit: int, autoescape: bool = True) -> str:
    """`urlizetrunc`, each plain text linked once per process: a finding's sources are the
    same few hundred URLs in every report, drawn again in every check a what-if moves."""
    if type(value) is not str:  # safe strings and other values: as the filter does them
        return defaultfilters.urlizetrunc(value, limit, autoescape=autoescape)  # type: ignore[arg-type]
    return _urlized(value, int(limit), autoescape)


@functools.lru_cache(maxsize=4096)
def _urlized(value: str, limit: int, autoescape: bool) -> str:
    return defaultfilters.urlizetrunc(value, limit, autoescape=autoescape)
