"""Heads in the languages that name the thing first: "Servidor Supermicro A+ AS-4126GS",
"Garantía 5 años in situ", "Installazione e messa in servizio", "Instalação e configuração no
local", "Wdrożenie i konfiguracja", "Transport en verpakking". ``bom_words.head_category``
reads an English or German head from its last noun backwards; in Spanish, Italian, French,
Portuguese, Dutch and Polish the noun that decides is the first word, and its accents hide it
from the English word lists ("garantía" is not a word of ``[a-z]``).

Pure: no ORM, no Django.
"""

from __future__ import annotations

import re
import unicodedata

# fmt: off
#: First words, accents folded, and what a head they start names. Never an English word that
#: also starts English heads ("Cable labeling service", "Extension cable", "Sistema" aside).
_FIRST_WORDS: dict[str, str] = {
    **dict.fromkeys((
        "servidor", "servidores", "serveur", "serveurs", "serwer", "serwery",
    ), "system"),
    **dict.fromkeys((
        "garantia", "garanzia", "garantie", "gwarancja", "estensione",
        "installazione", "instalacion", "instalacao", "installatie", "instalacja", "wdrozenie",
        "manutenzione", "mantenimiento", "manutencao", "onderhoud", "serwis", "supporto",
        "soporte", "suporte", "ondersteuning", "wsparcie", "assistenza", "asistencia",
        "assistencia", "servizio", "servizi", "servicio", "servicios", "servico", "servicos",
        "licenza", "licenze", "licencia", "licencias", "licenca", "licencas", "licentie",
        "licenties", "licencja", "licencje", "usluga", "uslugi", "puesta", "messa",
        "formazione", "formacion",
        "treinamento", "szkolenie", "implementacion", "implantacao", "mise", "prestation",
        "contrat", "contrato", "contratto",
    ), "service"),
    **dict.fromkeys((
        "transporte", "trasporto", "transport", "vracht", "verzending", "verzendkosten",
        "spedizione", "envio", "frete", "wysylka", "dostawa", "porto", "portes",
    ), "freight"),
    **dict.fromkeys((
        "cavo", "cavi", "cabo", "cabos", "kabels", "kable",
    ), "accessory"),
    **dict.fromkeys((
        "memoria", "pamiec", "geheugen", "processore", "procesador", "processador", "procesor",
        "processeur", "disco", "dysk", "schijf",
    ), "component"),
}
# fmt: on
_FIRST_WORD = re.compile(r"[a-z]+")
#: Heads whose first word is too general alone ("Frais", "Spese", "Gastos", "Koszty":
#: charges): the words after it decide. "Frais de port" is freight, "Frais d'installation" a
#: service.
_CHARGE_HEADS = (
    (
        re.compile(
            r"^(?:frais|spese|gastos|koszty|custos?|kosten)\s+(?:de\s+|di\s+|d\s+|do\s+|van\s+)?"
            r"(?:port|livraison|transport\w*|expedition|spedizione|envio|entrega|wysylki|"
            r"dostawy|frete|verzending|consegna)\b"
        ),
        "freight",
    ),
    (
        re.compile(
            r"^(?:frais|spese|gastos|koszty|custos?|kosten)\s+(?:de\s+|di\s+|d\s+|do\s+|van\s+)?"
            r"(?:installation|installazione|instalacion|instalacji|instalacao|installatie|"
            r"mise en service|montage|montazu)\b"
        ),
        "service",
    ),
)


def _fold(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text.casefold().replace("ł", "l"))
    return "".join(ch for ch in folded if not unicodedata.combining(ch))


def first_word_category(head: str) -> str:
    """What a head names by its first word in a name-first language: "Garantía 5 años" →
    service, "Servidor Supermicro ..." → system, "Transport en verpakking" and "Frais de
    port" → freight;
    "" when the first word is none of them (English heads are read by their last noun)."""
    folded = " ".join(re.findall(r"[a-z]+", _fold(head)))
    for pattern, category in _CHARGE_HEADS:
        if pattern.match(folded):
            return category
    found = _FIRST_WORD.match(folded)
    return _FIRST_WORDS.get(found.group(0), "") if found else ""
