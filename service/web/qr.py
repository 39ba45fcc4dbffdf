"""A link drawn as a QR code (segno), inline SVG: printed on paper or shown on a screen to a phone's
camera, with no script and no image fetched (a code's link is a secret: it is in no address). The
page names it (``templates/handed_link.html``)."""

from markupsafe import Markup
from segno import make


def qr_svg(link: str) -> Markup:
    """The link's QR code as an ``<svg>`` element, black on white with its quiet zone."""
    return Markup(make(link, error="m").svg_inline(scale=5, border=4, light="#fff"))  # segno's own markup
