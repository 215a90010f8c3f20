"""Host tools for the Scopa handheld: flashing, the simulator, score sheets.

These run on CPython on the developer's machine, never on the device.
"""
