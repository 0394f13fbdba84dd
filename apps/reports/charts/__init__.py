"""Server-drawn inline SVG for the pages and the PDF: gauges, bars and the vehicles on the lot.

Every function is pure: numbers and words in, one `<svg>` string out, marked safe only because we
built every tag ourselves and escaped every piece of text that came from outside (a quote's
description may carry `<img src=...>`). No `style=` attributes and no `<style>` element: the pages'
CSP forbids inline styles, so colour and type are SVG presentation attributes (fill, stroke,
font-size). Each SVG has a `<title>` and `role="img"` so a screen reader says what it shows.

One chart kind a module: ``gauge`` (the blood-pressure gauges), ``demand`` (demand against
capacity), ``racks`` (rack power against the room, each rack against its limit), ``buy_rent``
(the cumulative cost of buying against renting), ``vehicles`` (the vehicles on the lot); the
pieces they share (the ``<svg>`` frame, text, colours, the bar layout) in ``svg``.
"""
