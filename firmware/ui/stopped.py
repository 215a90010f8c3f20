"""The screen of an app stopped on an error (a bug), loaded only then.

``show(app, e)`` draws it: the screen says the app stopped, with the
error's name, rather than keeping its last frame as if the device had
hung. The game is on the flash as of its last play: a reset resumes it.
"""

from ui import gfx


def show(app, e):
    """Draw the stopped screen for exception `e` on `app`'s display (power
    on, full contrast). Raises what the display raises."""
    fb = app.fb
    p = app.pal
    app._display("poweron")
    app.apply_contrast()  # (dimmed, it would be hard to read)
    fb.fill(p.BG)
    y = 0
    name = type(e).__name__[:16]
    for t in ("Scopa stopped:", name, "", "Reset the board:", "the game resumes"):
        gfx.text(fb, t, 0, y, p.FG)
        y += 10
    fb.show()
