"""Reading a VIN from a photo: the image read in memory (barcodes, then text), the VIN candidates ranked."""
