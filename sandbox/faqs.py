"""The CMS's frequent questions (`/capi/faqs`): per language, the six topics of the footer's
Frequent Questions, each answer naming the skin so a player sees the operator's own words."""

from __future__ import annotations

from contracts.content import LOCALES, Faq, FaqTopic, Locale

# topic -> per language (question, answer); `{site}` is the skin's name.
QUESTIONS: tuple[tuple[FaqTopic, dict[Locale, tuple[str, str]]], ...] = (
    (
        "deposits",
        {
            "es": (
                "¿Cómo deposito en mi cuenta?",
                "Entrá a Depositar, elegí un método de pago e ingresá el monto. En {site} el saldo se acredita "
                "en cuanto el método confirma el pago.",
            ),
            "pt": (
                "Como faço um depósito na minha conta?",
                "Abra Depositar, escolha um método de pagamento e informe o valor. No {site} o saldo é creditado "
                "assim que o método confirma o pagamento.",
            ),
            "en": (
                "How do I deposit into my account?",
                "Open Deposit, choose a payment method and enter the amount. At {site} the balance is credited as "
                "soon as the method confirms the payment.",
            ),
        },
    ),
    (
        "deposits",
        {
            "es": (
                "¿Mi depósito quedó pendiente, qué hago?",
                "Algunos métodos tardan unos minutos en confirmar. Si a la hora sigue pendiente, escribinos "
                "desde Contáctanos con la fecha y el monto.",
            ),
            "pt": (
                "Meu depósito ficou pendente, o que faço?",
                "Alguns métodos levam alguns minutos para confirmar. Se depois de uma hora ainda estiver pendente, "
                "escreva para Fale conosco com a data e o valor.",
            ),
            "en": (
                "My deposit is pending: what should I do?",
                "Some methods take a few minutes to confirm. If it is still pending after an hour, write to us from "
                "Contact Us with the date and the amount.",
            ),
        },
    ),
    (
        "withdrawals",
        {
            "es": (
                "¿Cuánto tarda un retiro?",
                "{site} revisa cada retiro en 24 a 72 horas hábiles; después depende del banco. Podés seguirlo en "
                "Retirar, en tus solicitudes abiertas.",
            ),
            "pt": (
                "Quanto tempo leva um saque?",
                "O {site} analisa cada saque em 24 a 72 horas úteis; depois depende do banco. Acompanhe em Sacar, "
                "nas suas solicitações abertas.",
            ),
            "en": (
                "How long does a withdrawal take?",
                "{site} reviews each withdrawal within 24 to 72 working hours; after that it depends on your bank. "
                "Follow it under Withdrawal, in your open requests.",
            ),
        },
    ),
    (
        "verification",
        {
            "es": (
                "¿Por qué tengo que verificar mi cuenta?",
                "La ley nos pide confirmar tu identidad y tu edad antes del primer retiro. Subí tu documento desde "
                "Perfil, en Documentos.",
            ),
            "pt": (
                "Por que preciso verificar minha conta?",
                "A lei exige confirmar sua identidade e idade antes do primeiro saque. Envie seu documento em "
                "Perfil, em Documentos.",
            ),
            "en": (
                "Why do I have to verify my account?",
                "The law requires us to confirm your identity and age before your first withdrawal. Upload your "
                "document from Profile, under Documents.",
            ),
        },
    ),
    (
        "bonuses",
        {
            "es": (
                "¿Cómo uso mi saldo de bono?",
                "El bono se juega como el efectivo y pasa a efectivo al cumplir su requisito de apuestas, que ves "
                "en Retirar. Las promociones de {site} están en Promociones.",
            ),
            "pt": (
                "Como uso meu saldo de bônus?",
                "O bônus é jogado como o dinheiro e vira dinheiro ao cumprir o requisito de apostas, que aparece em "
                "Sacar. As promoções do {site} estão em Promoções.",
            ),
            "en": (
                "How do I use my bonus balance?",
                "The bonus plays like cash and turns into cash once its wagering requirement is met, shown under "
                "Withdrawal. The promotions of {site} are under Promotions.",
            ),
        },
    ),
    (
        "responsibleGaming",
        {
            "es": (
                "¿Puedo poner un límite o pausar mi cuenta?",
                "Sí. Escribinos desde Contáctanos y {site} aplica el límite o la pausa ese mismo día. Leé Juego "
                "responsable para más ayuda.",
            ),
            "pt": (
                "Posso definir um limite ou pausar minha conta?",
                "Sim. Escreva em Fale conosco e o {site} aplica o limite ou a pausa no mesmo dia. Leia Jogo "
                "responsável para mais ajuda.",
            ),
            "en": (
                "Can I set a limit or pause my account?",
                "Yes. Write to us from Contact Us and {site} applies the limit or pause the same day. Read "
                "Responsible Gaming for more help.",
            ),
        },
    ),
    (
        "account",
        {
            "es": (
                "Olvidé mi contraseña, ¿cómo entro?",
                "En Ingresar elegí ¿Olvidaste tu contraseña?, con tu correo y tu usuario: te enviamos una nueva "
                "al correo registrado.",
            ),
            "pt": (
                "Esqueci minha senha, como entro?",
                "Em Entrar escolha Esqueceu a senha?, com seu e-mail e usuário: enviamos uma nova para o e-mail "
                "cadastrado.",
            ),
            "en": (
                "I forgot my password: how do I get in?",
                "Under Login choose Forgot Password?, with your email and username: we send a new one to the "
                "registered email.",
            ),
        },
    ),
)


def seed_faqs(site_name: str) -> list[Faq]:
    """Every question in every language, in the order players read them."""
    faqs: list[Faq] = []
    for locale in LOCALES:
        for order, (topic, texts) in enumerate(QUESTIONS, start=1):
            question, answer = texts[locale]
            faqs.append(
                Faq(
                    id=len(faqs) + 1,
                    topic=topic,
                    question=question,
                    answer=answer.format(site=site_name),
                    order=order,
                    locale=locale,
                )
            )
    return faqs
