"""Phone to counter PC: the counter PC's VIN page shows a QR code of a one-time link; the phone that opens it scans a
VIN and sends it to that page, which decodes it there."""
