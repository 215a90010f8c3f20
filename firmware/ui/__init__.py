"""Screens (one module per group, imported when shown) and drawing helpers."""
