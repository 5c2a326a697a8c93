"""A fake OpenID Connect provider on 127.0.0.1, for social sign-in tests.

It approves every authorization request at once and hands out RS256-signed id_tokens for `next_user`, so a test
plays the whole authorization-code flow over real HTTP without reaching the internet.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import time
from typing import Any
from urllib.parse import urlencode

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from joserfc import jwt
from joserfc.jwk import RSAKey
from werkzeug.datastructures import Authorization
from werkzeug.routing import Map, Rule
from werkzeug.wrappers import Request, Response

from app.core.loopback import LoopbackServer

KEY_ID = "fake-oidc-key"
DEFAULT_USER = {"sub": "fake-subject-1", "email": "usta@example.com", "email_verified": True, "name": "Usta Bayi"}


def _signing_key() -> RSAKey:
    private_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = private_key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    return RSAKey.import_key(pem, parameters={"kid": KEY_ID, "use": "sig", "alg": "RS256"})


def _s256(verifier: str) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")


class FakeOidcProvider:
    """Start with `with FakeOidcProvider(client_id, client_secret) as fake:`; set `fake.next_user` per sign-in.

    Knobs for failure tests: `authorize_error` makes /authorize answer with that OAuth error, `token_error` makes
    /token refuse, and `id_token_overrides` replaces claims in the next id_token (a wrong nonce, say).
    """

    def __init__(self, client_id: str, client_secret: str) -> None:
        self.client_id = client_id
        self.client_secret = client_secret
        self.key = _signing_key()
        self.next_user: dict[str, Any] = dict(DEFAULT_USER)
        self.authorize_error: str | None = None
        self.token_error: str | None = None
        self.id_token_overrides: dict[str, Any] = {}
        self._grants: dict[str, dict[str, Any]] = {}
        self._access_tokens: dict[str, dict[str, Any]] = {}
        self._routes = Map(
            [
                Rule("/.well-known/openid-configuration", endpoint="discovery"),
                Rule("/authorize", endpoint="authorize"),
                Rule("/token", endpoint="token", methods=["POST"]),
                Rule("/jwks", endpoint="jwks"),
                Rule("/userinfo", endpoint="userinfo"),
            ]
        )
        self._server = LoopbackServer(self._wsgi, name="fake-oidc", quiet=True)

    # --- lifecycle ---------------------------------------------------------------------------------------------

    @property
    def issuer(self) -> str:
        return self._server.url

    @property
    def discovery_url(self) -> str:
        return f"{self.issuer}/.well-known/openid-configuration"

    def reset(self) -> None:
        self.next_user = dict(DEFAULT_USER)
        self.authorize_error = None
        self.token_error = None
        self.id_token_overrides = {}

    def __enter__(self) -> FakeOidcProvider:
        self._server.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._server.stop()

    # --- endpoints ---------------------------------------------------------------------------------------------

    def _wsgi(self, environ: dict, start_response: Any) -> Any:
        request = Request(environ)
        adapter = self._routes.bind_to_environ(environ)
        endpoint, _args = adapter.match()
        return getattr(self, endpoint)(request)(environ, start_response)

    def discovery(self, _request: Request) -> Response:
        return self._json(
            {
                "issuer": self.issuer,
                "authorization_endpoint": f"{self.issuer}/authorize",
                "token_endpoint": f"{self.issuer}/token",
                "jwks_uri": f"{self.issuer}/jwks",
                "userinfo_endpoint": f"{self.issuer}/userinfo",
                "response_types_supported": ["code"],
                "subject_types_supported": ["public"],
                "id_token_signing_alg_values_supported": ["RS256"],
                "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post"],
                "code_challenge_methods_supported": ["S256"],
            }
        )

    def authorize(self, request: Request) -> Response:
        """Approve at once, as a user already signed in at the provider would be."""
        args = request.args
        if args.get("client_id") != self.client_id or args.get("response_type") != "code":
            return self._json({"error": "invalid_request"}, 400)
        if self.authorize_error:
            return self._back_to_client(args, {"error": self.authorize_error, "state": args.get("state", "")})
        code = secrets.token_urlsafe(16)
        self._grants[code] = {
            "redirect_uri": args.get("redirect_uri"),
            "nonce": args.get("nonce"),
            "code_challenge": args.get("code_challenge"),
            "claims": dict(self.next_user),
        }
        return self._back_to_client(args, {"code": code, "state": args.get("state", "")})

    def token(self, request: Request) -> Response:
        if self.token_error:
            return self._json({"error": self.token_error}, 400)
        if not self._client_authenticated(request):
            return self._json({"error": "invalid_client"}, 401)
        grant = self._grants.pop(request.form.get("code", ""), None)
        if grant is None or grant["redirect_uri"] != request.form.get("redirect_uri"):
            return self._json({"error": "invalid_grant"}, 400)
        verifier = request.form.get("code_verifier")
        if grant["code_challenge"] and (not verifier or _s256(verifier) != grant["code_challenge"]):
            return self._json({"error": "invalid_grant"}, 400)
        access_token = secrets.token_urlsafe(24)
        self._access_tokens[access_token] = grant["claims"]
        return self._json(
            {
                "access_token": access_token,
                "token_type": "Bearer",
                "expires_in": 3600,
                "scope": "openid email profile",
                "id_token": self._id_token(grant),
            }
        )

    def jwks(self, _request: Request) -> Response:
        return self._json({"keys": [self.key.as_dict(private=False)]})

    def userinfo(self, request: Request) -> Response:
        scheme, _, access_token = request.headers.get("Authorization", "").partition(" ")
        claims = self._access_tokens.get(access_token) if scheme.lower() == "bearer" else None
        if claims is None:
            return self._json({"error": "invalid_token"}, 401)
        return self._json(claims)

    # --- helpers -----------------------------------------------------------------------------------------------

    def _client_authenticated(self, request: Request) -> bool:
        basic = Authorization.from_header(request.headers.get("Authorization"))
        if basic is not None and basic.type == "basic":
            return basic.username == self.client_id and basic.password == self.client_secret
        return (
            request.form.get("client_id") == self.client_id and request.form.get("client_secret") == self.client_secret
        )

    def _id_token(self, grant: dict[str, Any]) -> str:
        now = int(time.time())
        claims = {
            "iss": self.issuer,
            "aud": self.client_id,
            "iat": now,
            "exp": now + 600,
            "nonce": grant["nonce"],
            **grant["claims"],
            **self.id_token_overrides,
        }
        return jwt.encode({"alg": "RS256", "kid": KEY_ID}, claims, self.key)

    @staticmethod
    def _back_to_client(args: Any, params: dict[str, str]) -> Response:
        return Response(status=302, headers={"Location": f"{args.get('redirect_uri')}?{urlencode(params)}"})

    @staticmethod
    def _json(data: dict[str, Any], status: int = 200) -> Response:
        return Response(json.dumps(data), status=status, mimetype="application/json")
