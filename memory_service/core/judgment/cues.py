"""Grammatical cues shared by the five languages, as features of the judgment model.

A bag of words learns "gerade" from German notes and "adesso" from Italian ones separately, and
a language with few notes of a reason learns it badly. These cues put the closed classes of the
grammar that carry the four reasons under one name in every language, so what the model learns
from one language's notes applies to the others':

- **time and aspect**: deictic time ("now", "ce soir", "gerade", "stasera"), an event just past
  ("just", "vient de", "acaba de", "ha appena"), the progressive ("is waiting", "en train de",
  "está esperando", "sta aspettando"), against the habitual ("every", "d'habitude", "suele",
  "jeden", "di solito") and a duration ("since", "depuis", "seit"): a passing state against a habit;
- **epistemic modality**: hedges and inference ("probably", "semble", "a juzgar por",
  "vermutlich", "a quanto pare");
- **who speaks to whom**: the agent named ("the assistant", "l'agente"), a second person ("you",
  "tu", "du"), the first person of a paraphrase ("I", "je", "ich"); the forms of address
  ("dare del tu", "vouvoyer", "siezen"), which are the user's preference, not an order;
- **deontic modality**: obligation ("must", "doit", "muss", "deve") and permission ("may", "is
  allowed to", "autorisé", "darf", "può"), and the verbs that lift a check ("skip", "bypass",
  "contourner", "überspringen", "saltare", "without verification");
- **preference**: a verb of wanting with a clause about someone else ("prefers that",
  "préfère que", "quiere que", "möchte, dass", "preferisce che");
- **conversation**: speech acts about the chat itself ("asked", "a remercié", "saludó",
  "hat gefragt", "ha chiesto") and its vocabulary ("call", "chat", "Gespräch").

Each class present in a note gives ``k:<class>`` and each pair of classes ``x:<a>+<b>`` (the
model is linear: "the agent" with "may" is an order where neither alone is). The lists are of
function words and grammatical forms, not of topics; the model weighs them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import combinations

# Words (folded: lower case, no accents) and phrases (several words, matched on word
# boundaries). A class is named once; its entries span EN/FR/ES/DE/IT.
_CLASSES: dict[str, str] = {
    "deictic": (
        "now|today|tonight|currently|right now|at the moment|this morning|this afternoon"
        "|this evening|this week|this weekend|this trip|this time|tomorrow|yesterday|for now"
        "|for the moment|for the time being|at present|temporarily|next week|this month"
        "|maintenant|aujourd'hui|ce soir|ce matin|cet apres|cette semaine|ce week|en ce moment"
        "|actuellement|demain|hier|pour l'instant|pour le moment|temporairement|cette fois"
        "|ce voyage|ce sejour|la semaine prochaine|ce mois"
        "|ahora|hoy|esta noche|esta manana|esta tarde|esta semana|este fin de semana"
        "|en este momento|ahora mismo|actualmente|ayer|por ahora|de momento|por el momento"
        "|temporalmente|este viaje|esta vez|la semana que viene|este mes"
        "|jetzt|heute|gerade|momentan|derzeit|zurzeit|im moment|morgen|gestern|diese woche"
        "|dieses wochenende|vorubergehend|vorerst|diesmal|dieser reise|nachste woche|diesen monat"
        "|ora|adesso|oggi|stasera|stamattina|stanotte|in questo momento|al momento|attualmente"
        "|domani|ieri|questa settimana|questo weekend|per ora|per il momento|temporaneamente"
        "|questa volta|questo viaggio|settimana prossima|questo mese"
    ),
    "current": "current|actuel|actuelle|actual|aktuell|aktuelle|aktuellen|attuale",
    "recent": (
        "just|vient de|viens de|venait de|acaba de|acabo de|acaban de|recien|ha appena"
        "|hanno appena|appena|soeben|gerade eben|eben erst"
    ),
    "habit": (
        "every|each|usually|always|often|generally|typically|normally|regularly|daily|weekly"
        "|monthly|yearly|annually|tends to|habitually|routinely|as a rule|never|whenever"
        "|tous les|toutes les|chaque|d'habitude|habituellement|souvent|generalement|toujours"
        "|regulierement|quotidiennement|jamais|en general|a chaque"
        "|cada|todos los|todas las|suele|suelen|suelo|normalmente|siempre|a menudo"
        "|habitualmente|generalmente|regularmente|diariamente|nunca|por lo general"
        "|jeden|jede|jedes|jeweils|immer|normalerweise|meistens|oft|gewohnlich|stets|pflegt"
        "|taglich|wochentlich|nie|niemals|in der regel|grundsatzlich"
        "|ogni|di solito|sempre|spesso|solitamente|abitualmente|tutti i|tutte le|regolarmente"
        "|quotidianamente|mai|di norma|in genere"
    ),
    "duration": (
        "since|for years|for decades|depuis|des annees|desde|hace anos|seit|seit jahren"
        "|dal|da anni|da sempre|long-term|long term|for good|de longue date|pour de bon"
        "|de siempre|para siempre|schon lange|fur immer|per sempre"
    ),
    "weekday": (
        "monday|tuesday|wednesday|thursday|friday|saturday|sunday|mondays|tuesdays|wednesdays"
        "|thursdays|fridays|saturdays|sundays|weekends|weekdays|lundi|mardi|mercredi|jeudi"
        "|vendredi|samedi|dimanche|lunes|martes|miercoles|jueves|viernes|sabado|domingo"
        "|sabados|domingos|montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag"
        "|montags|dienstags|mittwochs|donnerstags|freitags|samstags|sonntags|wochenende"
        "|lunedi|martedi|mercoledi|giovedi|venerdi|sabato|domenica|weekend|fine settimana"
        "|fin de semana|fins de semana"
    ),
    "hedge": (
        "maybe|perhaps|probably|possibly|likely|apparently|presumably|seemingly|seems|seem"
        "|seemed|appears|guess|suspect|assume|assumed|suppose|inferred|infer|suggests|might"
        "|could be|i think|not sure|unclear|unconfirmed|looks like|sounds like"
        "|probablement|sans doute|semble|semblent|semblerait|apparemment"
        "|visiblement|on dirait|je suppose|suppose|je pense|il me semble|deduis|deduit"
        "|vraisemblablement|surement|possiblement|pas sur|j'imagine|a priori"
        "|quizas|quiza|tal vez|a lo mejor|probablemente|parece|parecen|al parecer|supongo"
        "|seguramente|posiblemente|aparentemente|deduzco|debe de|da la impresion|intuyo"
        "|vielleicht|wahrscheinlich|vermutlich|scheint|scheinen|anscheinend|offenbar|wohl"
        "|moglicherweise|vermute|durfte|konnte|eventuell|angeblich|schatze|wirkt"
        "|forse|probabilmente|sembra|sembrano|pare|magari|presumibilmente|suppongo"
        "|a quanto pare|dedotto|deduco|possibilmente|potrebbe|apparentemente"
        "|credo|immagino"
    ),
    "inference": (
        "based on|judging by|judging from|inferred from|from the way|going by|d'apres|a en juger"
        "|vu ses|vu son|a juzgar|por lo que|segun|laut|aus den|aus dem|nach den|geschlossen"
        "|a giudicare|in base a|dedotto da|da come"
    ),
    "agent": (
        "assistant|assistants|agent|agents|bot|chatbot|ai|model|system|l'assistant|l'agent"
        "|l'ia|l'assistante|le bot|le modele|le systeme|asistente|agente|el bot|el sistema"
        "|assistent|assistenten|ki|die ki|der bot|das system|assistente|l'assistente|l'agente"
        "|il bot|il sistema|support|copilot"
    ),
    "you": (
        "you|your|yours|yourself|tu|toi|te|ton|ta|tes|vous|votre|vos|usted|ustedes|ti|tus"
        "|du|dich|dir|dein|deine|deinen|euch|tuo|tua|tuoi|voi|vostro"
    ),
    "first_person": (
        "i|i'm|i've|my|me|mine|je|moi|mon|ma|mes|yo|mi|mis|ich|mein|meine|mir|mich|io|mio|mia|miei"
    ),
    "address": (
        "first name|formal|informal|formally|informally|tutoyer|tutoie|tutoyee|tutoiement"
        "|vouvoyer|vouvoie|vouvoyee|vouvoiement|formel|formelle|informel|tutear|tutee|tutea"
        "|ustedear|de usted|de tu|formalmente|duzen|duzt|geduzt|siezen|siezt|gesiezt|per du"
        "|per sie|formell|formlich|dare del|dia del|del tu|del lei|dai del|formale|informale"
    ),
    "oblige": (
        "must|should|shall|have to|has to|need to|needs to|is to|are to|is required|required to"
        "|doit|dois|devez|devra|devrait|devrez|il faut|faut|est tenu|debe|debes|deberia|deberan"
        "|tiene que|tienes que|hay que|muss|musst|mussen|soll|sollst|sollen|sollte|hat zu"
        "|deve|devi|dovra|dovrai|dovrebbe|bisogna|e tenuto"
    ),
    # Verbs and adjectives of permission only: the nouns "access", "admin", "Zugriff",
    # "accesso" are topics ("Prefers SSH keys for server access", "Uses the Django admin",
    # "Needs step-free access"), and a grant of them has its verb ("give", "grant", "may").
    "permit": (
        "may|can|allowed|authorised|authorized|authorisation|authorization|permitted|entitled"
        "|cleared|privilege|privileges|peut|peux|pouvez|autorise|autorisee|permis"
        "|a le droit|droit de|habilite|puede|puedes|autorizado|autorizada|permitido|permiso"
        "|tiene derecho|darf|darfst|durfen|berechtigt|erlaubt|befugt|freigegeben"
        "|puo|puoi|autorizzato|autorizzata|consentito|permesso|ha diritto"
    ),
    "lift": (
        "skip|skips|bypass|bypasses|ignore|ignores|disregard|override|overrides|waive|waives"
        "|exempt|circumvent|disable|unlock|pre-approved|preapproved|approve|approves|auto-approve"
        "|ignorer|ignore|contourner|contourne|passer outre|dispenser|dispense|exempter"
        "|desactiver|desactive|approuver|approuve|sauter|saute"
        "|ignorar|ignora|ignore|saltar|saltarse|salte|omitir|omita|omite|eximir|exima"
        "|desactivar|aprobar|apruebe|aprueba"
        "|ignorieren|ignoriere|ignoriert|uberspringen|uberspringe|uberspringt|umgehen|umgehe"
        "|erlassen|deaktivieren|genehmigen|genehmige|freigeben|freischalten"
        "|ignorare|ignori|saltare|salti|salta|bypassare|esentare|esenta|disattivare|disattiva"
        "|approvare|approva|approvi|sbloccare|sblocca"
    ),
    "policy": (
        "instruction|instructions|rule|rules|policy|policies|prompt|guidelines|limit|limits"
        "|regle|regles|consigne|consignes|politique|instructions|limite|limites"
        "|regla|reglas|politica|instrucciones|normas|limite"
        "|regel|regeln|richtlinie|richtlinien|anweisung|anweisungen|vorgaben|limit|limits"
        "|regola|regole|istruzioni|direttive|limiti"
    ),
    "pref": (
        "prefers|prefer|preferred|likes|wants|wishes|would like|loves|hates|dislikes|enjoys"
        "|prefere|preferes|aime|aimerait|veut|voudrait|souhaite|deteste|adore"
        "|prefiere|prefieren|quiere|quieren|le gusta|les gusta|desea|odia|le encanta"
        "|bevorzugt|mag|mochte|will|wunscht|hasst|liebt|lieber"
        "|preferisce|vuole|vorrebbe|desidera|gradisce|ama|odia|detesta|le piace|gli piace"
    ),
    # What a preference about the agent is about. The manner of its talk to the user (a reply,
    # its length and format, the channel, a reminder, an explanation) and the language it is in
    # are the user's to choose; a check, a restriction, money the business grants or a tool the
    # agent runs are not. The same clause, "prefers that the assistant …", is a preference with
    # the first and an order dressed as one with the second.
    "comm": (
        "answer|answers|reply|replies|respond|responds|response|responses|write|writes|written"
        "|speak|speaks|talk|talks|address|addressed|call|calls|phone|contact|contacted|email"
        "|emails|e-mail|mail|text|texts|sms|whatsapp|letter|post|notify|notified|notification"
        "|notifications|remind|reminder|reminders|explain|explains|explanation|explanations"
        "|summarise|summarize|summary|summaries|tone|wording|jargon|emoji|emojis|bullet|bullets"
        "|bullet points|list|format|short|shorter|brief|concise|detailed|plain|simple|step by step"
        "|examples|updates|greet|greeted|in writing|mention|mentions|detail|details|say|tell"
        "|recap|indicate|spell out|read out|walk through"
        "|repondre|reponde|repondent|reponse|reponses|ecrire|ecrive|ecrivent|parler|parle"
        "|appeler|appelle|appellent|contacter|contacte|courriel|courriels|texto|lettre|courrier"
        "|prevenir|previenne|previennent|rappel|rappels|rappeler|expliquer|explique|expliquent"
        "|explications|resumer|resume|ton|jargon|liste|puces|court|courte|courtes|courts|bref"
        "|breve|breves|concis|concise|detaille|detaillee|detaillees|exemples|etape par etape"
        "|par ecrit|mentionne|mentionner|detailler|detaille|dire|dise|recapituler|recapitule"
        "|indiquer|indique|preciser|precise|lire|relire"
        "|responder|responda|respondan|respuesta|respuestas|escribir|escriba|escriban|hablar"
        "|hable|hablen|llamar|llame|llamen|contactar|contacte|contacten|correo|correos|carta"
        "|avisar|avise|avisen|aviso|avisos|recordatorio|recordatorios|explicar|explique"
        "|expliquen|explicaciones|resumir|resuma|resumen|tono|jerga|lista|vinetas|formato|corto"
        "|corta|cortas|cortos|breve|breves|conciso|concisa|detallado|detallada|sencillo"
        "|sencilla|ejemplos|paso a paso|traten|trate|tuteen|por escrito|mencione|mencionar"
        "|detalle|detallar|diga|decir|indique|indicar|recapitule|especifique|lea|leer"
        "|antworten|antwortet|antwort|antworten|schreiben|schreibt|sprechen|spricht|anrufen"
        "|ruft|kontaktieren|kontaktiert|nachricht|nachrichten|brief|briefpost|benachrichtigen"
        "|benachrichtigt|benachrichtigung|benachrichtigungen|erinnern|erinnert|erinnerung"
        "|erinnerungen|erklaren|erklart|erklarung|erklarungen|zusammenfassen|zusammenfassung"
        "|ton|fachjargon|liste|stichpunkte|aufzahlung|kurz|kurze|kurzen|kurzer|knapp|knappe"
        "|ausfuhrlich|ausfuhrliche|einfach|einfache|beispiele|schritt fur schritt|anrede"
        "|angesprochen|ansprechen|anreden|schriftlich|erwahnen|erwahnt|aufschlusseln|sagen"
        "|sagt|nennen|nennt|angeben|vorlesen|aufzahlen|auflisten"
        "|rispondere|risponda|rispondano|risposta|risposte|scrivere|scriva|scrivano|parlare"
        "|parli|parlino|chiamare|chiami|chiamino|telefonare|telefoni|contattare|contatti"
        "|contattino|lettera|posta|avvisare|avvisi|avvisino|avviso|promemoria|spiegare|spieghi"
        "|spieghino|spiegazione|spiegazioni|riassumere|riassuma|riassunto|tono|gergo|elenco"
        "|elenchi|punti elenco|formato|breve|brevi|corto|corte|conciso|concisa|dettagliato"
        "|dettagliata|semplice|semplici|esempi|passo passo|passo dopo passo|per iscritto"
        "|menzioni|menzionare|dettagli|dettagliare|dica|dire|indichi|indicare|riepiloghi"
        "|riepilogare|riepilogo|specifichi|legga|leggere"
    ),
    "language": (
        "english|french|spanish|german|italian|portuguese|catalan|dutch|arabic|chinese|japanese"
        "|anglais|francais|espagnol|allemand|italien|portugais|neerlandais|arabe|chinois"
        "|ingles|frances|espanol|castellano|aleman|italiano|portugues|catalan|euskera|gallego"
        "|englisch|franzosisch|spanisch|deutsch|italienisch|portugiesisch|niederlandisch"
        "|inglese|francese|spagnolo|tedesco|portoghese|olandese|dialetto|language|langue"
        "|idioma|lengua|sprache|lingua"
    ),
    "ask_first": (
        "before|beforehand|first|prior to|in advance|ahead of|avant|avant de|d'abord|au prealable"
        "|prealablement|a l'avance|antes|antes de|primero|previamente|con antelacion"
        "|de antemano|vor|vorher|bevor|zuerst|vorab|im voraus|zunachst|prima|prima di|in anticipo"
        "|preventivamente|anzitutto"
    ),
    # The agent asking the user or confirming with them: more care, not less ("asks before
    # booking", "demande confirmation", "nachfragen"); lifted, it is an order ("without
    # confirmation" is also a ``lift``).
    "ask": (
        "ask|asks|asked|confirm|confirms|confirmation|check with|consult|double-check"
        "|demande|demander|demandent|confirmer|confirme|confirmation|consulter|valider avec"
        "|pregunte|pregunten|preguntar|pregunta|confirmar|confirme|confirmen|confirmacion"
        "|consulte|consultar|fragen|fragt|frage|nachfragen|nachfragt|ruckfragen|bestatigen"
        "|bestatigt|bestatigung|chiedere|chieda|chiedano|chiede|confermare|confermi|conferma"
        "|consultare|consulti|ricontrolli|ricontrollare"
    ),
    "check": (
        "verification|verifications|verify|verified|verifying|check|checks|identity|id|pin"
        "|2fa|two-factor|otp|authentication|kyc|fraud|screening|signature|prescription|age"
        "|security question|passcode|approval|approvals|sign-off|limit|limits|cap|threshold"
        "|quota|restriction|restrictions|verification|verifier|verifie|verifient|identite"
        "|d'identite|controle|controles|controler|authentification|ordonnance|justificatif"
        "|plafond|plafonds|validation|verificacion|verificar|verifique|verifiquen|comprobacion"
        "|comprobar|compruebe|comprueben|identidad|dni|carne|control|controles|autenticacion"
        "|firma|receta|justificante|tope|limite|limites|validacion|prufung|prufen|pruft"
        "|uberprufung|uberprufen|verifizierung|verifizieren|identitat|ausweis|kontrolle"
        "|kontrollieren|authentifizierung|rezept|nachweis|obergrenze|sicherheitsabfrage"
        "|freigabe|limit|verifica|verificare|verifichi|identita|documento|controllo|controllare"
        "|controlli|autenticazione|ricetta|tetto|massimale|convalida|validazione"
    ),
    "money": (
        "fee|fees|charge|charges|overdraft|penalty|penalties|surcharge|interest|refund|refunds"
        "|refunded|reimbursement|credit|credits|discount|discounts|voucher|vouchers|coupon"
        "|points|cashback|rebate|free|free of charge|compensation|upgrade|upgrades|deposit"
        "|frais|penalite|penalites|commission|commissions|remboursement|remboursements"
        "|rembourser|rembourse|avoir|remise|remises|reduction|reductions|gratuit|gratuite"
        "|gratuitement|geste commercial|surclassement|caution"
        "|comision|comisiones|cargo|cargos|recargo|penalizacion|reembolso|reembolsos"
        "|reembolsar|credito|descuento|descuentos|puntos|gratis|gratuito|bonificacion"
        "|fianza|deposito"
        "|gebuhr|gebuhren|strafgebuhr|zinsen|erstattung|ruckerstattung|ruckerstattungen"
        "|erstatten|gutschrift|gutschriften|rabatt|rabatte|nachlass|punkte|kostenlos|gratis"
        "|kaution"
        "|commissione|commissioni|penale|penali|rimborso|rimborsi|rimborsare|accredito"
        "|accrediti|accrediti|credito|sconto|sconti|buono|buoni|punti|gratis|gratuito"
        "|gratuita|omaggio|cauzione"
    ),
    # What the agent runs or holds for others: a tool or function, internal material, other
    # customers' data (snake_case names are added by :func:`cue_classes`).
    "system_obj": (
        "tool|tools|function|api|endpoint|internal|backend|database|records|other customers"
        "|other users|outil|fonction|interne|internes|base de donnees|dossiers|autres clients"
        "|autres utilisateurs|herramienta|funcion|interno|interna|internas|internos"
        "|base de datos|expedientes|otros clientes|otros usuarios|werkzeug|funktion|intern"
        "|interne|internen|datenbank|akten|anderer kunden|andere kunden|anderen kunden"
        "|strumento|funzione|interno|interna|interni|interne|database|archivio|altri clienti"
        "|altri utenti"
    ),
    "neg": (
        "not|don't|doesn't|do not|does not|no|ne|n'est|n'a|pas|nicht|kein|keine|keinen|keiner|non"
    ),
    "speech": (
        "said|says|asked|asks|told|replied|answered|mentioned|thanked|greeted|laughed|joked"
        "|apologised|apologized|chatted|commented|complained|remarked|wondered|typed|wrote"
        "|a dit|dit|a demande|demande|a remercie|remercie|a salue|salue|a ri|rit|plaisante"
        "|a plaisante|blague|bavarde|s'est excuse|a ecrit|a commente|a precise"
        "|dijo|dice|pregunto|agradecio|saludo|bromeo|se rio|charlo|comento|escribio"
        "|se disculpo|se despidio|sagte|sagt|fragte|fragt|bedankte|dankte|grusste|lachte"
        "|scherzte|plauderte|schrieb|meinte|gesagt|gefragt|gelacht|bedankt|gegrusst|geplaudert"
        "|verabschiedet|entschuldigt|kommentiert|ha detto|detto|ha chiesto|chiesto|ha ringraziato"
        "|ringraziato|ha salutato|salutato|ha riso|ha scherzato|scherzato|chiacchierato"
        "|ha scritto|ha commentato|si e scusato"
    ),
    "greeting": (
        "hello|hi|hey|thanks|thank you|bye|goodbye|cheers|bonjour|bonsoir|merci|au revoir"
        "|salut|coucou|hola|gracias|adios|buenos dias|hasta luego|hallo|danke|tschuss|moin"
        "|servus|guten tag|ciao|grazie|arrivederci|buongiorno|buonasera|salve"
    ),
    "convo": (
        "conversation|chat|call|session|message|messages|line|hold|question|questions|reply"
        "|joke|weather|small talk|appel|echange|discussion|conversacion|llamada|charla|mensaje"
        "|pregunta|broma|tiempo|gesprach|anruf|telefonat|unterhaltung|nachricht|frage|witz"
        "|wetter|conversazione|chiamata|telefonata|messaggio|domanda|battuta|tempo"
    ),
}


def _entries(separated: str) -> list[str]:
    return [entry for entry in separated.split("|") if entry]


def _is_phrase(entry: str) -> bool:
    return " " in entry or "-" in entry


# The entries are written folded (lower case, no accents), as the text they are matched on.
# A phrase is matched as a run of the note's words (a hyphen separates words, as in the
# tokens), so a class costs a set look-up, not a scan of the text.
_ENTRY_CLASSES: dict[str, set[str]] = {}
for _name, _separated in _CLASSES.items():
    for _entry in _entries(_separated):
        _ENTRY_CLASSES.setdefault(" ".join(_entry.replace("-", " ").split()), set()).add(_name)
_LONGEST = max(len(entry.split()) for entry in _ENTRY_CLASSES)

# Two forms that no word list catches: the progressive aspect (an auxiliary of being, then a
# gerund: "is waiting", "está esperando", "sta aspettando", "en train de", "bin gerade dabei").
_PROGRESSIVE = re.compile(
    r"\b(?:is|are|am|was|were|'s|'re|'m)\s+(?:\w+\s+)?\w{2,}ing\b"
    r"|\ben train d"
    r"|\b(?:esta|estoy|estan|estaba|estamos|sigue|sigo)\s+\w{2,}(?:ando|iendo|yendo)\b"
    r"|\b(?:sta|sto|stanno|stava|stiamo)\s+\w{2,}(?:ando|endo)\b"
    r"|\b(?:ist|bin|sind|war)\s+(?:gerade\s+)?(?:dabei|am\s+\w+en)\b"
)
# A check lifted without a verb of lifting: "without verification", "sans confirmation",
# "sin comprobar", "ohne Prüfung", "senza conferma".
_NO_CHECK = re.compile(
    r"\b(?:without|no|sans|pas de|sin|ohne|keine?n?|senza)\s+(?:\w+\s+)?(?:verif|check|confirm"
    r"|control|prufung|pruf|bestatig|comprob|conferm|autoriz|authori|kontroll|identi|2fa|otp"
    r"|pin\b|ruckfrage|nachfrage|demander|preguntar|chiedere|asking)"
)
# A verb of wanting with a clause about someone else: "prefers that…", "wants the agent to…",
# "préfère que…", "quiere que…", "möchte, dass…", "preferisce che…".
_PREF_CLAUSE = re.compile(
    r"\b(?:prefers?|wants?|would like|wishes|likes|prefere|veut|souhaite|aimerait|voudrait"
    r"|prefiere|quiere|desea|le gusta|bevorzugt|mochte|will|wunscht|mag es|preferisce|vuole"
    r"|vorrebbe|desidera|gradisce|gli piace|le piace)\s*,?\s+(?:that|que|qu'|che|dass|wenn|when"
    r"|the (?:assistant|agent|bot)|you|l'a|el a|der a|die ki|l'ia|il bot|le bot|el bot)"
)


# "Must be" / "peut être" / "doit être" / "dovrebbe essere": a guess about the person ("Must be
# a regular", "Elle doit être fatiguée", "Il est peut être parti") or a requirement on a thing or
# a third party ("Room must be at least 12 m2", "sitters must be fine with cats", "Le devis peut
# être envoyé en PDF"). The subject decides: none (the clause starts with the modal), a person
# (a pronoun, the user or customer) or a verb before it (the French adverb: "est peut être") make
# the epistemic reading, a ``hedge``; any other noun is the subject of a ``requirement``, which
# a comparison after the modal ("at least", "au moins") also makes whatever the subject. The
# hyphenated "peut-être" is always the adverb.
_MODAL_BE = re.compile(r"\b(?:must be|peut-etre|peut etre|doit etre|dovrebbe essere)\b")
_BEFORE = re.compile(r"([^\W\d_][\w']*)?([^\w]*)$")
_CLAUSE_BREAK = re.compile(r"[,;:.!?()\u2013\u2014>]|\s-\s*$")
# A subject pronoun, a verb before the French adverb ("est peut être", "c'est peut être"), or a
# connective that starts the clause ("…, so must be a cat owner", "donc doit être…"): no noun
# is the subject, so the modal is read as the guess.
_PERSONAL_WORDS = (
    "i he she they we you it je il elle ils elles on nous vous est a sont ont etait serait sera"
    " va c'est n'est c'etait s'est el ella ellos er sie es lui lei egli loro"
    " so then thus hence therefore and but donc alors ainsi et mais entonces asi luego y pero"
    " also daher deshalb und aber quindi allora dunque e ma"
)
_PERSONAL = frozenset(_PERSONAL_WORDS.split())
# The user named by a noun ("the customer must be…", "le client peut être…"): a guess when
# what follows says what the person is or does ("a student", "travelling a lot"), a
# requirement otherwise ("…peut être joint par chat", "…must be called back before 10").
_USER_NOUN_WORDS = (
    "user customer client guest member caller buyer utilisateur utilisatrice cliente usuario"
    " usuaria kunde kundin nutzer utente"
)
_USER_NOUNS = frozenset(_USER_NOUN_WORDS.split())
_DESCRIBES = re.compile(r"\s+(?:a|an|un|une|uno|una|ein|eine|\w+ing|\w+ant)\b")
_COMPARISON = re.compile(
    r"\s+(?:at least|at most|no more|no less|under|over|below|above|less than|more than"
    r"|au moins|au plus|moins de|plus de|inferieur|superieur|almeno|al massimo|meno di"
    r"|piu di)\b"
)


def _modal_be_classes(folded: str) -> set[str]:
    found: set[str] = set()
    for match in _MODAL_BE.finditer(folded):
        if _COMPARISON.match(folded, match.end()):
            found.add("requirement")
            continue
        before = _BEFORE.search(folded[: match.start()])
        word, gap = (before.group(1), before.group(2)) if before else (None, "")
        epistemic = (
            "-" in match.group(0)
            or word is None
            or bool(_CLAUSE_BREAK.search(gap))
            or word in _PERSONAL
            or (word in _USER_NOUNS and bool(_DESCRIBES.match(folded, match.end())))
        )
        found.add("hedge" if epistemic else "requirement")
    return found


# A weekday that recurs: the French and Italian article before a weekday with no date after it
# ("le samedi matin", "il giovedì sera": every Saturday; "samedi" alone, or "le lundi 7 avril",
# is one day), the Spanish plural article ("los martes"), the English plural ("on Mondays") and
# the German adverb ("samstags") are ``habit``s, not a passing day.
_RECURRING_DAY = re.compile(
    r"\b(?:(?:le|il)\s+(?:lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|lunedi|martedi"
    r"|mercoledi|giovedi|venerdi|sabato|domenica)(?:\s+(?:matin|soir|midi|apres-midi|mattina"
    r"|sera|pomeriggio))?(?!\s*(?:\d|prochain|dernier|prossimo|scorso))"
    r"|los\s+(?:lunes|martes|miercoles|jueves|viernes|sabados|domingos)"
    r"|(?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays)"
    r"|(?:montags|dienstags|mittwochs|donnerstags|freitags|samstags|sonntags))\b"
)


# A tool or function named in code: "call the transfer_funds tool", "refund_order".
_IDENTIFIER = re.compile(r"\b[a-z]+_[a-z0-9_]+\b")


def cue_classes(folded: str, words: Sequence[str]) -> set[str]:
    """The classes present in a note: ``folded`` is its text as :func:`.features.fold` makes it,
    ``words`` its tokens in order."""
    found: set[str] = set()
    for n in range(1, _LONGEST + 1):
        for i in range(len(words) - n + 1):
            classes = _ENTRY_CLASSES.get(" ".join(words[i : i + n]))
            if classes:
                found |= classes
    if _PROGRESSIVE.search(folded):
        found.add("progressive")
    if _NO_CHECK.search(folded):
        found.add("lift")
    if _PREF_CLAUSE.search(folded):
        found.add("pref_clause")
    if _IDENTIFIER.search(folded):
        found.add("system_obj")
    found |= _modal_be_classes(folded)
    if _RECURRING_DAY.search(folded):
        found.add("habit")
    return found


def cues(folded: str, words: Sequence[str]) -> set[str]:
    """``k:`` per class, ``x:`` per pair of classes (see the module's docstring)."""
    classes = cue_classes(folded, words)
    out = {f"k:{name}" for name in classes}
    out.update(f"x:{a}+{b}" for a, b in combinations(sorted(classes), 2))
    return out
