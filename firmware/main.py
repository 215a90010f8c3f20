# main.py: what a board runs at boot. It stays a source stub: the app
# itself is compiled to .mpy by the flash tool.
import app

app.main()
