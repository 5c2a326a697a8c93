"""The day's exchange rates from the Central Bank (TCMB), and supplier prices in TRY with the rate and its date."""
