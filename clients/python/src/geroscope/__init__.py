"""Python client for the Geroscope Data API: papers about the biology of aging, their judgements, stories,
entities and claims. Start with ``Geroscope(api_key=..., base_url=...)``."""
from .client import Geroscope
from .errors import (
    AuthenticationError, GeroscopeError, InvalidParameter, NotFound, PlanRequired, RateLimited, ServerError,
    Unavailable,
)
from .pages import ChangeFeed, Items, Page, is_tombstone, to_dataframe
from .transport import RateLimit

__version__ = "0.1.0"

__all__ = [
    "AuthenticationError", "ChangeFeed", "Geroscope", "GeroscopeError", "InvalidParameter", "Items", "NotFound", "Page",
    "PlanRequired", "RateLimit", "RateLimited", "ServerError", "Unavailable", "is_tombstone", "to_dataframe",
]
