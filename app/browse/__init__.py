"""VIN-less catalog browsing: make -> model -> variant -> groups -> drawing and parts, in both upstream catalog
architectures (the catalog API and the legacy web catalog)."""
