"""Who is asking for a shared quote: a person's browser, or a fetcher drawing a link's preview card (WhatsApp,
Telegram, iMessage, Slack...), which must never count as the customer opening it."""

from __future__ import annotations

import re

from flask import Request

# The agents of link-preview fetchers and crawlers, and of anything that is no browser: a word in its User-Agent.
# Apple's iMessage previews as "facebookexternalhit/1.1 Facebot Twitterbot/1.0"; "bot" covers Googlebot, Twitterbot,
# Slackbot(-LinkExpanding), Discordbot, LinkedInBot, TelegramBot and the generic ones.
PREVIEW_AGENT = re.compile(
    r"bot|crawl|spider|slurp|preview|whatsapp|facebookexternalhit|facebot|embedly|skypeuripreview|vkshare|"
    r"pinterest|bitlybot|outbrain|quora link|iframely|curl|wget|python-|go-http-client|okhttp|java/|httpclient",
    re.IGNORECASE,
)


def is_link_preview(user_agent: str) -> bool:
    """A preview fetcher, a crawler or a script; a browser's agent names none of these (no agent: not a browser)."""
    return not user_agent.strip() or bool(PREVIEW_AGENT.search(user_agent))


def same_site_post(request: Request) -> bool:
    """Whether a POST came from this site's own page. Browsers say where it came from in Sec-Fetch-Site, and in
    Origin ("null" under the page's no-referrer policy); a client that sends neither is no browser on another site."""
    fetch_site = request.headers.get("Sec-Fetch-Site")
    if fetch_site is not None and fetch_site != "same-origin":
        return False
    origin = request.headers.get("Origin")
    return origin is None or origin == "null" or origin == request.host_url.rstrip("/")
