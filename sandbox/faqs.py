"""The CMS's frequent questions (`/capi/faqs`): per language, the six topics of the footer's
Frequent Questions. The texts are `faq.<n>.question` / `faq.<n>.answer` in sandbox/texts; each
answer's `{site}` is the skin's name, so a player reads the operator's own words."""

from __future__ import annotations

from contracts.content import Faq, FaqTopic
from contracts.locales import LOCALES
from sandbox.texts import words

# The questions in the order players read them (the n of their texts' keys).
TOPICS: tuple[FaqTopic, ...] = (
    "deposits",
    "deposits",
    "withdrawals",
    "verification",
    "bonuses",
    "responsibleGaming",
    "account",
)


def seed_faqs(site_name: str) -> list[Faq]:
    """Every question in every language."""
    faqs: list[Faq] = []
    for locale in LOCALES:
        for order, topic in enumerate(TOPICS, start=1):
            faqs.append(
                Faq(
                    id=len(faqs) + 1,
                    topic=topic,
                    question=words(f"faq.{order}.question")[locale],
                    answer=words(f"faq.{order}.answer")[locale].format(site=site_name),
                    order=order,
                    locale=locale,
                )
            )
    return faqs
