"""Where an OEM code is used: across every stored vehicle, as JSON and as a page."""
