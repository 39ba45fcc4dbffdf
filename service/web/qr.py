"""A link drawn as a QR code (segno), inline SVG: printed on paper or shown on a screen to a phone's
camera, with no script and no image fetched (a code's link is a secret: it is in no address). The
page names it (``templates/handed_link.html``)."""

from markupsafe import Markup
from segno import make


def qr_svg(link: str) -> Markup:
    """The link's QR code as an ``<svg>`` element, black on white with its quiet zone, sized by its
    page (a ``viewBox``, no width of its own: the stylesheet makes it 14rem on screen, 8 cm printed)."""
    drawn = make(link, error="m").svg_inline(border=4, light="#fff", omitsize=True)
    return Markup(drawn)  # segno's own markup
