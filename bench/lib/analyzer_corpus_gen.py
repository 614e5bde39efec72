"""bench/analyzer's labelled corpus: documents in every format dozor-analyzer reads, Russian and
English, with personal data planted at known places (random identifiers with their real check
digits, names from the model's dictionaries in case forms and orders, addresses, special
categories) and clean twins of the same layout whose values must NOT be found (wrong check
digits, or valid values without the context their detector requires).

Each document is a Doc: its format, bytes, and `planted`, a set of (category, normalised value);
for the keyword categories (health, religion, politics) the value is "" (matched per document).
The check digits follow engines/analyzer/checksums.cpp."""

from __future__ import annotations

import os
import pathlib
import random
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "tests", "integration"))
from analyzer_corpus import docx, html, odt, pdf, rtf, xlsx  # noqa: E402

KEYWORD_CATEGORIES = ("health", "religion", "politics")
FORMATS = ("text-utf8", "text-cp1251", "text-en", "html", "docx", "xlsx", "odt", "rtf", "pdf")
# Read by OCR (analyzer.ocr): a page typed in LibreOffice and rendered to pixels by pdftoppm —
# as a PNG image, and as a scanner's PDF (grey page images, no text layer).
OCR_FORMATS = ("png", "pdf-scan")
OCR_DPI = 200


# ---------------------------------------------------------------- normalisation (for matching)

def digits(s: str) -> str:
    return "".join(c for c in s if c.isdigit())


LOOKALIKE = str.maketrans("ABEKMHOPCTYX", "АВЕКМНОРСТУХ")
MONTHS = [("январ", "jan"), ("феврал", "feb"), ("март", "mar"), ("апрел", "apr"), ("ма", "may"), ("июн", "jun"),
          ("июл", "jul"), ("август", "aug"), ("сентябр", "sep"), ("октябр", "oct"), ("ноябр", "nov"),
          ("декабр", "dec")]


def normalise(category: str, value: str) -> str:
    """The form planted and found values are compared in."""
    if category in KEYWORD_CATEGORIES:
        return ""
    if category == "phone":
        d = digits(value)
        return "7" + d[1:] if len(d) == 11 and d[0] == "8" else d
    if category == "car_plate":
        return "".join(value.upper().translate(LOOKALIKE).split())
    if category == "birth_date":
        parts = value.replace("/", ".").replace("-", ".").split(".")
        if len(parts) == 3 and all(p.isdigit() for p in parts):
            return "%04d-%02d-%02d" % (int(parts[2]), int(parts[1]), int(parts[0]))
        words = value.split()
        if len(words) == 3:
            m = words[1].casefold()
            for i in range(12, 0, -1):
                if m.startswith(MONTHS[i - 1][0]) or m.startswith(MONTHS[i - 1][1]):
                    return "%04d-%02d-%02d" % (int(words[2]), i, int(words[0]))
        return value.casefold()
    if category in ("full_name", "address", "email"):
        # Case-folded, ё as е, letters and digits only (spacing and punctuation do not count).
        return "".join(c for c in value.casefold().replace("ё", "е") if c.isalnum() or c == "@" and category == "email")
    return digits(value)


# ---------------------------------------------------------------- check digits

def snils_check(d9: str) -> str:
    s = sum(int(c) * (9 - i) for i, c in enumerate(d9))
    check = s if s < 100 else 0 if s in (100, 101) else s % 101
    return "%02d" % (0 if check == 100 else check)


def snils_ok(d: str) -> bool:
    return len(d) == 11 and d[:9] > "001001998" and snils_check(d[:9]) == d[9:]


def inn_digit(d: str, w: list[int]) -> str:
    return str(sum(int(c) * k for c, k in zip(d, w)) % 11 % 10)


W10 = [2, 4, 10, 3, 5, 9, 4, 6, 8]
W11 = [7, 2, 4, 10, 3, 5, 9, 4, 6, 8]
W12 = [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8]


def inn10_ok(d: str) -> bool:
    return len(d) == 10 and d[:2] != "00" and inn_digit(d, W10) == d[9]


def inn12_ok(d: str) -> bool:
    return len(d) == 12 and d[:2] != "00" and inn_digit(d, W11) == d[10] and inn_digit(d, W12) == d[11]


def ogrn_ok(d: str) -> bool:
    return len(d) == 13 and d[0] in "15" and str(int(d[:12]) % 11 % 10) == d[12]


def ogrnip_ok(d: str) -> bool:
    return len(d) == 15 and d[0] == "3" and str(int(d[:14]) % 13 % 10) == d[14]


def luhn_ok(d: str) -> bool:
    total = 0
    for i, c in enumerate(reversed(d)):
        v = int(c)
        if i % 2:
            v = v * 2 - 9 if v * 2 > 9 else v * 2
        total += v
    return total % 10 == 0


def card_ok(d: str) -> bool:
    return 12 <= len(d) <= 19 and d[0] in "23456" and luhn_ok(d)


def account_keyed(account: str, prefix: str) -> bool:
    s = prefix + account
    return sum(int(c) * (7, 1, 3)[i % 3] % 10 for i, c in enumerate(s)) % 10 == 0


def account_ok(account: str, bik: str) -> bool:
    return account_keyed(account, bik[6:9]) or account_keyed(account, "0" + bik[4:6])


# ---------------------------------------------------------------- random identifiers

class Gen:
    def __init__(self, seed: int):
        self.r = random.Random(seed)
        names = os.path.join(REPO, "share", "analyzer")

        def words(f):
            with open(os.path.join(names, f), encoding="utf-8") as fh:
                return [w.strip() for w in fh if w.strip() and not w.startswith("#")]

        first = words("first_names.txt")
        sur = words("surnames.txt")
        cyr = lambda w: "а" <= w[0] <= "я"  # noqa: E731
        male_a = {"никита", "илья"}
        self.ru_male = [w for w in first if cyr(w) and (w[-1] not in "ая" or w in male_a)]
        self.ru_female = [w for w in first if cyr(w) and w[-1] in "ая" and w not in male_a]
        self.en_first = [w for w in first if not cyr(w)]
        self.ru_sur = [w for w in sur if cyr(w)]
        self.en_sur = [w for w in sur if not cyr(w)]

    def digits(self, n: int) -> str:
        return "".join(str(self.r.randrange(10)) for _ in range(n))

    def pick(self, xs):
        return self.r.choice(xs)

    # Each identifier: (valid value as written, invalid twin as written).
    def snils(self):
        while True:
            d9 = self.digits(9)
            if d9 > "001001998" and d9[0] not in "78":
                break
        good = d9 + snils_check(d9)
        bad = d9 + "%02d" % ((int(snils_check(d9)) + self.r.randrange(1, 99)) % 100)
        assert snils_ok(good) and not snils_ok(bad)
        style = self.r.randrange(3)
        fmt = lambda d: ("%s-%s-%s %s" % (d[:3], d[3:6], d[6:9], d[9:]) if style == 0 else  # noqa: E731
                         "%s %s %s %s" % (d[:3], d[3:6], d[6:9], d[9:]) if style == 1 else d)
        return fmt(good), fmt(bad)

    def _wrong(self, d: str, i: int) -> str:
        return d[:i] + str((int(d[i]) + self.r.randrange(1, 10)) % 10) + d[i + 1:]

    def inn10(self):
        d = self.pick(["77", "78", "50", "52", "66", "16"]) + self.digits(7)
        good = d + inn_digit(d, W10)
        bad = self._wrong(good, 9)
        assert inn10_ok(good) and not inn10_ok(bad)
        return good, bad

    def inn12(self):
        d = self.pick(["77", "78", "50", "52", "66", "16", "54"]) + self.digits(8)
        d += inn_digit(d, W11)
        good = d + inn_digit(d, W12)
        bad = self._wrong(good, 11)
        assert inn12_ok(good) and not inn12_ok(bad)
        return good, bad

    def ogrn(self):
        d = self.pick("15") + self.digits(11)
        good = d + str(int(d) % 11 % 10)
        bad = self._wrong(good, 12)
        assert ogrn_ok(good) and not ogrn_ok(bad)
        return good, bad

    def ogrnip(self):
        d = "3" + self.digits(13)
        good = d + str(int(d) % 13 % 10)
        bad = self._wrong(good, 14)
        assert ogrnip_ok(good) and not ogrnip_ok(bad)
        return good, bad

    def card(self):
        prefix = self.pick(["2200", "2202", "2204", "4276", "4279", "4817", "5469", "5536", "5228"])
        d = prefix + self.digits(11)
        for c in "0123456789":
            if luhn_ok(d + c):
                good = d + c
                break
        bad = self._wrong(good, 15)
        assert card_ok(good) and not card_ok(bad)
        style = self.r.randrange(3)
        sep = " " if style == 0 else "-" if style == 1 else ""
        fmt = lambda x: sep.join(x[i:i + 4] for i in range(0, 16, 4))  # noqa: E731
        return fmt(good), fmt(bad)

    def bik(self):
        return "04" + self.pick(["4525", "4030", "4583", "5004", "6577"]) + self.digits(3)

    def account(self, bik):
        head = self.pick(["40817810", "40702810", "40802810", "42301810"])
        tail = self.digits(11)
        good = bad = None
        for k in "0123456789":
            acc = head + k + tail
            if account_ok(acc, bik):
                good = good or acc
            else:
                bad = bad or acc
        return good, bad

    def passport(self):
        region = "%02d" % self.r.randrange(1, 99)
        year = "%02d" % self.r.randrange(0, 24)
        num = "%06d" % self.r.randrange(1, 999999)
        return region, year, num

    def phone_ru(self):
        code = self.pick(["916", "903", "926", "985", "495", "812", "343", "913", "961"])
        n = self.digits(7)
        style = self.r.randrange(4)
        if style == 0:
            return "+7 (%s) %s-%s-%s" % (code, n[:3], n[3:5], n[5:])
        if style == 1:
            return "8 %s %s %s %s" % (code, n[:3], n[3:5], n[5:])
        if style == 2:
            return "+7%s%s" % (code, n)
        return "8-%s-%s-%s-%s" % (code, n[:3], n[3:5], n[5:])

    def phone_bad(self):
        # A Russian shape with a code outside the numbering plan (2xx, 5xx, 6xx, 7xx).
        return "+7 (%s) %s-%s-%s" % (self.pick(["216", "512", "617", "702"]), self.digits(3), self.digits(2),
                                     self.digits(2))

    def phone_intl(self):
        return self.pick(["+44 20 %s %s" % (self.digits(4), self.digits(4)),
                          "+49 30 %s %s" % (self.digits(4), self.digits(4)),
                          "+1 212 %s %s" % (self.digits(3), self.digits(4))])

    def oms(self, card_safe: bool):
        while True:
            d = self.pick(["77", "50", "78", "66", "16"]) + self.digits(14)
            if not card_safe or not card_ok(d):
                break
        return " ".join(d[i:i + 4] for i in range(0, 16, 4)) if self.r.randrange(2) else d

    def plate(self, latin=False):
        letters = "ABEKMHOPCTYX" if latin else "АВЕКМНОРСТУХ"
        num = "%03d" % self.r.randrange(1, 1000)
        region = self.pick(["77", "99", "177", "197", "50", "78", "199", "16", "66", "777"])
        return self.pick(letters) + num + self.pick(letters) + self.pick(letters) + region

    def birth_date(self, lang: str):
        y, m, d = self.r.randrange(1940, 2006), self.r.randrange(1, 13), self.r.randrange(1, 29)
        if self.r.randrange(3) == 0:
            month = (["января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября",
                      "октября", "ноября", "декабря"] if lang == "ru" else
                     ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                      "October", "November", "December"])[m - 1]
            return "%d %s %d" % (d, month, y)
        return "%02d%s%02d%s%d" % (d, ".", m, ".", y) if self.r.randrange(4) else "%02d/%02d/%d" % (d, m, y)


# ---------------------------------------------------------------- Russian names in case forms

PATRONYMIC = {"александр": ("Александрович", "Александровна"), "алексей": ("Алексеевич", "Алексеевна"),
              "андрей": ("Андреевич", "Андреевна"), "сергей": ("Сергеевич", "Сергеевна"),
              "иван": ("Иванович", "Ивановна"), "владимир": ("Владимирович", "Владимировна"),
              "дмитрий": ("Дмитриевич", "Дмитриевна"), "михаил": ("Михайлович", "Михайловна"),
              "николай": ("Николаевич", "Николаевна"), "петр": ("Петрович", "Петровна"),
              "павел": ("Павлович", "Павловна"), "юрий": ("Юрьевич", "Юрьевна"), "олег": ("Олегович", "Олеговна"),
              "виктор": ("Викторович", "Викторовна"), "игорь": ("Игоревич", "Игоревна"),
              "никита": ("Никитич", "Никитична"), "илья": ("Ильич", "Ильинична"), "лев": ("Львович", "Львовна")}
YO = {"артем": "артём", "семен": "семён", "петр": "пётр", "федор": "фёдор", "алена": "алёна", "федоров": "фёдоров",
      "семенов": "семёнов", "королев": "королёв", "соловьев": "соловьёв", "воробьев": "воробьёв"}
CASES = ("nom", "gen", "dat", "ins")
SIBILANT = tuple("гкхжшчщ")


def first_form(n: str, female: bool, case: str) -> str:
    if case == "nom":
        return n
    i = CASES.index(case) - 1
    if n == "павел":
        return ("павла", "павлу", "павлом")[i]
    if n == "лев":
        return ("льва", "льву", "львом")[i]
    if n == "илья":
        return ("ильи", "илье", "ильей")[i]
    if n.endswith("ия"):
        return n[:-1] + ("и", "и", "ей")[i]
    if n.endswith("я"):
        return n[:-1] + ("и", "е", "ей")[i]
    if n.endswith("а"):
        stem = n[:-1]
        return stem + ("и" if stem.endswith(SIBILANT) else "ы", "е", "ой")[i]
    if female:
        return n  # Любовь: not declined here
    if n.endswith(("й", "ь")):
        return n[:-1] + ("я", "ю", "ем")[i]
    return n + ("а", "у", "ом")[i]


def surname_form(n: str, female: bool, case: str) -> str:
    i = CASES.index(case)
    if n.endswith(("ов", "ев", "ин", "ын")):
        return (n + "а" if female else n) if i == 0 else n + (("ой",) * 3 if female else ("а", "у", "ым"))[i - 1]
    if n.endswith(("ский", "цкий")):
        stem = n[:-2]
        return (stem + "ая" if female else n) if i == 0 else stem + (("ой",) * 3 if female else ("ого", "ому", "им"))[i - 1]
    if n.endswith("ой"):
        stem = n[:-2]
        return (stem + "ая" if female else n) if i == 0 else stem + (("ой",) * 3 if female else ("ого", "ому", "ым"))[i - 1]
    if female or n.endswith("о") or i == 0:
        return n  # Шевченко, and women's consonant surnames, do not decline
    return n + ("а", "у", "ом")[i - 1]


def patronymic_form(p: str, female: bool, case: str) -> str:
    i = CASES.index(case)
    if i == 0:
        return p
    return p[:-1] + ("ы", "е", "ой")[i - 1] if female else p + ("а", "у", "ем")[i - 1]


def cap(w: str) -> str:
    return "-".join(x[:1].upper() + x[1:] for x in w.split("-"))


def ru_name(g: Gen, case: str) -> str:
    female = g.r.randrange(2) == 0
    first = g.pick(g.ru_female if female else g.ru_male)
    surname = g.pick(g.ru_sur)
    father = g.pick(sorted(PATRONYMIC))
    pat = PATRONYMIC[father][1 if female else 0]
    f, s, p = first_form(first, female, case), surname_form(surname, female, case), patronymic_form(pat, female, case)
    if g.r.randrange(5) == 0:
        f, s = YO.get(f, f), YO.get(s, s)
    F, S, P = cap(f), cap(s), cap(p)
    shape = g.r.randrange(7)
    return [f"{S} {F} {P}", f"{F} {P} {S}", f"{S} {F[0]}. {P[0]}.", f"{F[0]}. {P[0]}. {S}", f"{F} {S}",
            f"{S} {F}", f"{S} {F[0]}.{P[0]}."][shape]


def en_name(g: Gen) -> str:
    f, s = cap(g.pick(g.en_first)), cap(g.pick(g.en_sur))
    return [f"{f} {s}", f"{f[0]}. {s}", f"{s} {f}"][g.r.randrange(3)]


# ---------------------------------------------------------------- addresses

CITIES = ["Москва", "Санкт-Петербург", "Казань", "Новосибирск", "Екатеринбург", "Нижний Новгород", "Самара", "Омск",
          "Ростов-на-Дону", "Уфа", "Красноярск", "Пермь", "Воронеж", "Тверь", "Подольск"]
STREETS = [("ул.", "Ленина"), ("ул.", "Советская"), ("ул.", "Гагарина"), ("ул.", "Садовая"), ("пр-т", "Мира"),
           ("ул.", "Пушкина"), ("пер.", "Кривоколенный"), ("ш.", "Энтузиастов"), ("ул.", "Кирова"),
           ("б-р", "Рокоссовского"), ("наб.", "Фонтанки"), ("пр-т", "Невский"), ("ул.", "Первомайская"),
           ("ул.", "Маршала Жукова"), ("пр.", "Ленинский")]


REGIONS = [("Московская", "Подольск"), ("Ленинградская", "Гатчина"), ("Тверская", "Ржев"), ("Самарская", "Тольятти")]


def address(g: Gen) -> str:
    city = g.pick(CITIES)
    kind, street = g.pick(STREETS)
    house = "д. %d" % g.r.randrange(1, 150)
    if g.r.randrange(3) == 0:
        house += g.pick([", корп. %d" % g.r.randrange(1, 6), ", стр. %d" % g.r.randrange(1, 4), "/%d" % g.r.randrange(1, 9)])
    flat = ", кв. %d" % g.r.randrange(1, 400)
    index = str(g.r.randrange(1, 7)) + g.digits(5)
    shape = g.r.randrange(4)
    if shape == 0:
        return f"г. {city}, {kind} {street}, {house}{flat}"
    if shape == 1:
        return f"{index}, {city}, {street} {kind}, {house}{flat}" if kind == "пр-т" else \
            f"{index}, г. {city}, {kind} {street}, {house}{flat}"
    if shape == 2:
        region, town = g.pick(REGIONS)
        return f"{index}, {region} обл., г. {town}, {kind} {street}, {house}{flat}"
    return f"г. {city}, {kind} {street}, {house}"


# ---------------------------------------------------------------- filler (no personal data)

FILLER_RU = [
    "Настоящий документ составлен в двух экземплярах, имеющих одинаковую юридическую силу.",
    "Стороны обязуются соблюдать условия конфиденциальности в течение срока действия договора.",
    "Оплата производится в течение десяти рабочих дней с момента подписания акта приёмки.",
    "Все изменения и дополнения действительны при условии их письменного оформления.",
    "Отчёт подготовлен по итогам квартала и согласован с руководством подразделения.",
    "Работы выполнены в полном объёме, претензий по качеству и срокам стороны не имеют.",
    "Поставка осуществляется со склада поставщика, стоимость доставки включена в цену.",
    "Совещание перенесено на следующую неделю в связи с подготовкой годовой отчётности.",
    "Сведения предоставлены для внутреннего использования и не подлежат публикации.",
    "Гарантийный срок на оборудование составляет двенадцать месяцев с даты ввода в эксплуатацию.",
]
FILLER_EN = [
    "This document is made in two copies of equal legal force, one for each party.",
    "The parties agree to keep the terms of this agreement confidential during its validity.",
    "Payment is due within ten business days after the acceptance certificate is signed.",
    "The quarterly report was reviewed and approved by the department management.",
    "Delivery is made from the supplier's warehouse; shipping costs are included in the price.",
    "Any amendments are valid only when made in writing and signed by both parties.",
    "The equipment warranty period is twelve months from the date of commissioning.",
    "The meeting was moved to next week because of the annual reporting schedule.",
]
DISEASES = ["гипертоническая болезнь II стадии", "сахарный диабет 2 типа", "бронхиальная астма", "хронический гастрит"]
BRANDS = ["Toyota Camry", "Lada Vesta", "Kia Rio", "Hyundai Solaris", "Volkswagen Polo"]
PARTIES = ["«Единая Россия»", "КПРФ", "ЛДПР", "«Яблоко»", "«Новые люди»"]


@dataclass
class Doc:
    fmt: str
    lang: str
    planted_doc: bool
    body: bytes = b""
    planted: set = field(default_factory=set)
    raw: dict = field(default_factory=dict)  # (category, normalised) -> the value as written
    pages: int = 1

    @property
    def name(self):
        return "%s-%s-%s" % (self.fmt, self.lang, "pd" if self.planted_doc else "clean")


class Record:
    """Lines of one document (paragraph texts) and the values planted in them."""

    def __init__(self):
        self.lines: list[str] = []
        self.planted: set = set()
        self.raw: dict = {}

    def add(self, line: str, *values):
        self.lines.append(line)
        for category, value in values:
            key = (category, normalise(category, value))
            self.planted.add(key)
            self.raw[key] = value


def person_ru(g: Gen, rec: Record, planted: bool, bik: str):
    """One person's block in Russian: every field with probability ~0.7 (name always)."""
    r = g.r
    if planted:
        case = g.pick(CASES)
        name = ru_name(g, case)
        lead = {"nom": g.pick(["ФИО: {}", "Сотрудник: {}", "Заявитель — {}", "Ответственный: {}"]),
                "gen": g.pick(["Заявление от {} принято к рассмотрению.", "Со слов {} составлена настоящая запись."]),
                "dat": g.pick(["Настоящая справка выдана {} для предъявления по месту требования.",
                               "Направить уведомление {} в установленный срок."]),
                "ins": g.pick(["Договор заключён с {} сроком на один год.", "Согласовано с {} в рабочем порядке."])}[case]
        rec.add(lead.format(name), ("full_name", name))
    else:
        rec.add(g.pick(["Сотрудник: менеджер отдела продаж", "Заявитель — юридический отдел",
                        "Ответственный: служба поддержки"]))
    if r.random() < 0.7:
        good, bad = g.birth_date("ru"), g.birth_date("ru")
        if planted:
            rec.add(g.pick(["Дата рождения: {}", "Родился {} г.", "Дата рождения {}"]).format(good), ("birth_date", good))
        else:
            rec.add(g.pick(["Дата договора: {}", "Срок поставки: до {}"]).format(bad))
    if r.random() < 0.7:
        good, bad = g.snils()
        rec.add(g.pick(["СНИЛС: {}", "СНИЛС {}", "Страховой номер индивидуального лицевого счёта: {}"]).format(good if planted else bad),
                *([("snils", good)] if planted else []))
    if r.random() < 0.7:
        good, bad = g.inn12()
        rec.add(g.pick(["ИНН: {}", "ИНН физического лица {}"]).format(good if planted else bad),
                *([("inn", good)] if planted else []))
    if r.random() < 0.7:
        a, b, n = g.passport()
        if planted:
            v = g.pick([f"{a} {b} № {n}", f"{a}{b} {n}", f"{a} {b} {n}"])
            rec.add(g.pick(["Паспорт: серия {}, выдан отделом УФМС", "паспорт гражданина РФ {}",
                            "Документ, удостоверяющий личность: паспорт {}"]).format(v), ("passport_rf", v))
        else:
            rec.add("Артикул {} {} {}, склад 3".format(a, b, n))
    if r.random() < 0.7:
        if planted:
            v = g.phone_ru()
            rec.add(g.pick(["Телефон: {}", "Тел. {}", "моб. {}", "Контактный телефон {}"]).format(v), ("phone", v))
        else:
            rec.add("Телефон: {}".format(g.phone_bad()))
    if r.random() < 0.6 and planted:
        e = g.pick(["ivanov", "a.smirnova", "petrov.sergey", "k.orlova", "m.sokolov", "nvolkova", "d.fedorov"]) + \
            str(r.randrange(1, 999)) + "@" + g.pick(["mail.ru", "yandex.ru", "example.ru", "gmail.com", "почта.рф"])
        rec.add(g.pick(["E-mail: {}", "Эл. почта: {}", "Адрес электронной почты {}"]).format(e), ("email", e))
    if r.random() < 0.6:
        good, bad = g.card()
        rec.add(g.pick(["Номер карты: {}", "Карта МИР {}", "Банковская карта {}"]).format(good if planted else bad),
                *([("bank_card", good)] if planted else []))
    if r.random() < 0.6:
        good, bad = g.account(bik)
        rec.add(g.pick(["Счёт получателя: {}, БИК {}", "Р/с {} в ПАО «Банк», БИК {}"]).format(good if planted else bad, bik),
                *([("bank_account", good)] if planted else []))
    if r.random() < 0.6:
        if planted:
            v = g.oms(False)
            rec.add(g.pick(["Полис ОМС № {}", "Полис обязательного медицинского страхования {}"]).format(v), ("oms_policy", v))
        else:
            rec.add("Код товара {}".format(g.oms(True)))
    if r.random() < 0.5:
        if planted:
            v = g.plate()
            rec.add(g.pick(["Автомобиль {}, госномер {}", "Транспортное средство {} г/н {}"]).format(g.pick(BRANDS), v),
                    ("car_plate", v))
        else:
            rec.add("Автомобиль {}, госномер {}000{}{}77".format(g.pick(BRANDS), g.pick("АВЕКМ"), g.pick("ОРСТ"), g.pick("УХ")))
    if r.random() < 0.7:
        if planted:
            v = address(g)
            rec.add(g.pick(["Адрес регистрации: {}", "Проживает по адресу: {}", "Адрес: {}"]).format(v), ("address", v))
        else:
            rec.add(g.pick(["Доставка по Москве и Московской области.", "Офис находится в центре Казани."]))
    if planted and r.random() < 0.3:
        rec.add("Диагноз: " + g.pick(DISEASES), ("health", ""))
    if planted and r.random() < 0.15:
        rec.add("Вероисповедание: " + g.pick(["православный", "мусульманин", "католик"]), ("religion", ""))
    if planted and r.random() < 0.15:
        rec.add("Член партии {} с {} года".format(g.pick(PARTIES), r.randrange(1995, 2020)), ("politics", ""))


def person_en(g: Gen, rec: Record, planted: bool):
    r = g.r
    if planted:
        name = en_name(g)
        rec.add(g.pick(["Employee: {}", "Contact person: {}", "Signed by {} on behalf of the company."]).format(name),
                ("full_name", name))
    else:
        rec.add("Employee: sales department")
    if r.random() < 0.7:
        good, bad = g.birth_date("en"), g.birth_date("en")
        if planted:
            rec.add(g.pick(["Date of birth: {}", "Born {}", "DOB: {}"]).format(good), ("birth_date", good))
        else:
            rec.add("Delivery expected on {}".format(bad))
    if r.random() < 0.6:
        good, bad = g.snils()
        rec.add(("SNILS {}" if planted else "SNILS {}").format(good if planted else bad),
                *([("snils", good)] if planted else []))
    if r.random() < 0.6:
        good, bad = g.inn12()
        rec.add("INN (taxpayer number) {}".format(good if planted else bad), *([("inn", good)] if planted else []))
    if r.random() < 0.5:
        a, b, n = g.passport()
        if planted:
            v = f"{a} {b} {n}"
            rec.add("Russian passport {}".format(v), ("passport_rf", v))
        else:
            rec.add("Batch {} {} {}".format(a, b, n))
    if r.random() < 0.7:
        if planted:
            v = g.phone_intl() if r.randrange(2) else g.phone_ru()
            rec.add("Phone: {}".format(v), ("phone", v))
        else:
            rec.add("Phone: {}".format(g.phone_bad()))
    if r.random() < 0.6 and planted:
        e = g.pick(["john.smith", "mary.j", "d.brown", "sarah.w"]) + str(r.randrange(1, 999)) + "@" + \
            g.pick(["example.com", "mail.co.uk", "corp.example.org"])
        rec.add("E-mail: {}".format(e), ("email", e))
    if r.random() < 0.6:
        good, bad = g.card()
        rec.add("Card number {}".format(good if planted else bad), *([("bank_card", good)] if planted else []))
    if r.random() < 0.4:
        if planted:
            v = g.oms(False)
            rec.add("OMS health insurance policy {}".format(v), ("oms_policy", v))
        else:
            rec.add("Item code {}".format(g.oms(True)))
    if r.random() < 0.4:
        if planted:
            v = g.plate(latin=r.randrange(2) == 0)
            rec.add("Vehicle plate {}".format(v), ("car_plate", v))
    if planted and r.random() < 0.3:
        rec.add("Diagnosis: " + g.pick(["asthma", "type 2 diabetes", "hypertension"]), ("health", ""))
    if planted and r.random() < 0.15:
        rec.add("Religion: " + g.pick(["Catholic", "Muslim"]), ("religion", ""))
    if planted and r.random() < 0.15:
        rec.add("Political views: member of the Green party", ("politics", ""))


def organisation(g: Gen, rec: Record, planted: bool, lang: str, bik: str):
    r = g.r
    if r.randrange(2):
        inn, inn_bad = g.inn10()
        og, og_bad = g.ogrn()
        word = "ОГРН" if lang == "ru" else "OGRN"
        if planted:
            rec.add("ООО «Ромашка», ИНН {}, {} {}".format(inn, word, og) if lang == "ru" else
                    "Romashka LLC, INN {}, {} {}".format(inn, word, og), ("inn", inn), ("ogrn", og))
        else:
            # A valid INN-10 without its context, and wrong check digits with it.
            rec.add("ООО «Ромашка», ОГРН {}, ИНН {}".format(og_bad, inn_bad) if lang == "ru" else
                    "Romashka LLC, OGRN {}, INN {}".format(og_bad, inn_bad))
            # Out of reach of the context words around it (a PDF page is one segment, so the
            # window spans lines there).
            filler = lambda: rec.add(" ".join(g.pick(FILLER_RU if lang == "ru" else FILLER_EN) for _ in range(2)))  # noqa: E731
            filler(), filler()
            rec.add(("Код клиента {}" if lang == "ru" else "Client code {}").format(inn))
            filler()
    else:
        inn, inn_bad = g.inn12()
        og, og_bad = g.ogrnip()
        if planted:
            rec.add("Индивидуальный предприниматель, ИНН {}, ОГРНИП {}".format(inn, og) if lang == "ru" else
                    "Sole proprietor, INN {}, OGRNIP {}".format(inn, og), ("inn", inn), ("ogrn", og))
        else:
            rec.add("Индивидуальный предприниматель, ИНН {}, ОГРНИП {}".format(inn_bad, og_bad) if lang == "ru" else
                    "Sole proprietor, INN {}, OGRNIP {}".format(inn_bad, og_bad))
    if lang == "ru":
        rec.add("Банк получателя: ПАО «Банк», БИК {}".format(bik))


def wrap(text: str, width: int = 84) -> list[str]:
    out, line = [], ""
    for w in text.split():
        if line and len(line) + 1 + len(w) > width:
            out.append(line)
            line = w
        else:
            line = (line + " " + w).strip()
    return out + ([line] if line else [])


def body_lines(g: Gen, lang: str, planted: bool, people: int, filler: int) -> Record:
    rec = Record()
    bik = g.bik()
    rec.add(g.pick(["Анкета сотрудника", "Сведения о работниках", "Договор поставки", "Акт сверки"]) if lang == "ru" else
            g.pick(["Employee record", "Supply agreement", "Staff list"]))
    organisation(g, rec, planted, lang, bik)
    for _ in range(people):
        for _ in range(g.r.randrange(filler + 1)):
            rec.add(" ".join(g.pick(FILLER_RU if lang == "ru" else FILLER_EN) for _ in range(g.r.randrange(2, 6))))
        if lang == "ru":
            person_ru(g, rec, planted, bik)
        else:
            person_en(g, rec, planted)
    return rec


XLSX_RU = ["ФИО", "Дата рождения", "СНИЛС", "ИНН", "Паспорт", "Телефон", "E-mail", "Адрес регистрации",
           "Полис ОМС", "Номер карты"]
XLSX_EN = ["Full name", "Date of birth", "SNILS", "INN", "Passport", "Phone", "E-mail", "Card number"]


def xlsx_doc(g: Gen, lang: str, planted: bool, rows: int) -> tuple[bytes, set, dict]:
    planted_set, raw = set(), {}
    out = [XLSX_RU if lang == "ru" else XLSX_EN] if planted else [["Товар", "Дата", "Артикул", "Код партии", "Код",
                                                                    "Склад", "Цена"]]
    for _ in range(rows):
        if not planted:
            a, b, n = g.passport()
            out.append([g.pick(["Болт М8", "Гайка М10", "Шайба", "Кронштейн", "Петля дверная"]), g.birth_date("ru"),
                        g.snils()[1], g.inn12()[1], "%s%s%s" % (a, b, n), g.r.randrange(1, 40), g.r.randrange(10, 9000)])
            continue
        name = ru_name(g, "nom") if lang == "ru" else en_name(g)
        bd = g.birth_date(lang)
        snils = g.snils()[0]
        inn = g.inn12()[0]
        a, b, n = g.passport()
        pas = f"{a} {b} {n}"
        phone = g.phone_ru()
        email = "user%d@example.ru" % g.r.randrange(1, 99999)
        card = g.card()[0]
        # Some identifiers stored as numbers (a leading zero would be lost: those stay text).
        as_number = lambda v: int(digits(v)) if g.r.randrange(3) == 0 and v[0] != "0" else v  # noqa: E731
        row = [name, bd, as_number(snils), as_number(inn), pas, phone, email]
        vals = [("full_name", name), ("birth_date", bd), ("snils", snils), ("inn", inn), ("passport_rf", pas),
                ("phone", phone), ("email", email)]
        if lang == "ru":
            addr, oms = address(g), g.oms(False)
            row += [addr, oms]
            vals += [("address", addr), ("oms_policy", oms)]
        row.append(card)
        vals.append(("bank_card", card))
        out.append(row)
        for c, v in vals:
            planted_set.add((c, normalise(c, v)))
            raw[(c, normalise(c, v))] = v
    return xlsx(out), planted_set, raw


def make_doc(g: Gen, fmt: str, lang: str, planted: bool) -> Doc:
    doc = Doc(fmt, lang, planted)
    if fmt == "xlsx":
        doc.body, doc.planted, doc.raw = xlsx_doc(g, lang, planted, g.r.randrange(5, 40))
        return doc
    people = g.r.randrange(1, 6) if fmt != "pdf" else g.r.randrange(4, 10)
    rec = body_lines(g, lang, planted, people, filler=5 if fmt != "pdf" else 8)
    doc.planted, doc.raw = rec.planted, rec.raw
    if fmt in ("text-utf8", "text-en"):
        doc.body = "\n".join(rec.lines).encode()
    elif fmt == "text-cp1251":
        doc.body = "\r\n".join(rec.lines).encode("cp1251")
    elif fmt == "html":
        doc.body = html(rec.lines)
    elif fmt == "docx":
        doc.body = docx(rec.lines)
    elif fmt == "odt":
        doc.body = odt(rec.lines)
    elif fmt == "rtf":
        doc.body = rtf(rec.lines)
    elif fmt == "pdf":
        lines = [x for line in rec.lines for x in wrap(line)]
        pages, per = [], 48
        for i in range(0, len(lines), per):
            pages.append(lines[i:i + per])
        while len(pages) < 3:  # several pages, the last ones a short appendix
            pages.append(wrap(" ".join(g.pick(FILLER_RU if lang == "ru" else FILLER_EN) for _ in range(8))))
        doc.pages = len(pages)
        doc.body = pdf(pages)
    return doc


def _pgm(path: pathlib.Path) -> tuple[int, int, bytes]:
    data = path.read_bytes()
    parts = data.split(maxsplit=4)  # P5 width height maxval pixels
    w, h = int(parts[1]), int(parts[2])
    return w, h, data[-w * h:]


def ocr_corpus(per_format: int, seed: int) -> list[Doc]:
    """per_format documents of each OCR format, half planted, half clean twins, 2/3 Russian:
    typed (LibreOffice's text import, Liberation Mono) and rendered at OCR_DPI in grey."""
    sys.path.insert(0, os.path.join(REPO, "tests", "fixtures", "ocr"))
    from make_fixtures import scanned_pdf  # noqa: E402
    g = Gen(seed + 1)
    docs = []
    with tempfile.TemporaryDirectory(prefix="bench-ocr-") as tmp:
        t = pathlib.Path(tmp)
        for fmt in OCR_FORMATS:
            for i in range(per_format):
                planted = i % 2 == 0
                lang = "ru" if (i // 2) % 3 != 2 else "en"
                doc = Doc(fmt, lang, planted)
                # One page for the PNG; the scan may run to a second page.
                rec = body_lines(g, lang, planted, people=1 if fmt == "png" else g.r.randrange(1, 4), filler=2)
                doc.planted, doc.raw = rec.planted, rec.raw
                name = "%s-%03d" % (fmt, i)
                (t / (name + ".txt")).write_text("\n".join(x for line in rec.lines for x in wrap(line, 72)) + "\n",
                                                 encoding="utf-8")
                docs.append(doc)
        names = sorted(p.name for p in t.glob("*.txt"))
        subprocess.run(["soffice", "--headless", "--convert-to", "pdf", "--outdir", tmp] + names, cwd=tmp,
                       check=True, capture_output=True, timeout=600)
        k = 0
        for fmt in OCR_FORMATS:
            for i in range(per_format):
                doc = docs[k]
                k += 1
                name = "%s-%03d" % (fmt, i)
                subprocess.run(["pdftoppm", "-r", str(OCR_DPI), "-gray", str(t / (name + ".pdf")), str(t / name)],
                               check=True)
                pages = sorted(t.glob(name + "-*.pgm"))
                doc.pages = len(pages)
                if fmt == "png":
                    subprocess.run(["pdftoppm", "-r", str(OCR_DPI), "-gray", "-png", "-f", "1", "-l", "1", "-singlefile",
                                    str(t / (name + ".pdf")), str(t / name)], check=True)
                    doc.body = (t / (name + ".png")).read_bytes()
                    doc.pages = 1
                else:
                    doc.body = scanned_pdf([_pgm(p) for p in pages], OCR_DPI)
    return docs


def corpus(per_format: int, seed: int) -> list[Doc]:
    """per_format documents of each format: half with planted data, half clean twins; the text
    formats in their language, the others half Russian, half English."""
    g = Gen(seed)
    docs = []
    for fmt in FORMATS:
        for i in range(per_format):
            planted = i % 2 == 0
            lang = "ru" if fmt in ("text-utf8", "text-cp1251") else "en" if fmt == "text-en" else \
                ("ru" if (i // 2) % 3 != 2 else "en")
            docs.append(make_doc(g, fmt, lang, planted))
    return docs
