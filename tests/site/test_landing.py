"""The public landing page."""


def test_landing_page_is_public_and_turkish(client):
    response = client.get("/")

    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "Parça Bul" in html
    assert "17 haneli şasi numarasını yazın" in html
    assert 'action="/language"' in html and 'method="post"' in html


def test_landing_page_loads_its_assets_from_this_site(client):
    html = client.get("/").get_data(as_text=True)

    for asset in ("/static/css/app.css", "/static/vendor/htmx.min.js", "/static/js/app.js"):
        assert asset in html
        with client.get(asset) as response:
            assert response.status_code == 200
