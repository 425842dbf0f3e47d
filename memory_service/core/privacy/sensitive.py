"""Special categories of personal data (GDPR art. 9) and criminal records (art. 10).

A note about the user's health, religion or belief, sex life or sexual orientation, ethnic
origin, political opinion, union membership, genetic or biometric data, or criminal past is
not refused by default: it is held until the user confirms it (``needs_confirmation``) and
then stored with the legal basis ``explicit_consent`` (art. 9(2)(a)). A tenant may refuse such
notes outright instead (:class:`~memory_service.core.tenant_policy.TenantPolicy`).

Where the line is drawn, on purpose:

- **Health is a named condition, not a habit.** A diagnosis, a disease or disorder, an
  allergy or intolerance ("allergic to peanuts", "lactose intolerant"), a disability, a
  pregnancy, a treatment or medication is health data: an allergy is an immune condition
  and saying so tells a doctor something. A diet the user chose ("vegetarian", "vegan",
  "no red meat", "avoids gluten", "prefers lactose-free milk") names no condition and is a
  preference. Diets tied to a faith ("halal", "kosher") reveal a belief and are held.
- **Two detectors, either one holds the note.** The structure, where the language allows it:
  a condition as a medical head noun ("... disease", "trouble ...", "Störung"), a medical
  suffix right after a health verb ("has tendinitis", "tiene artritis"), or a cue
  ("diagnosed with", "souffre de", "leidet an"); a belief, orientation or opinion after a
  copula ("is a practising Catholic", "ist schwul"), a party after a vote verb; a bounded
  list names the common conditions that carry no head noun (diabetes, asthma, epilepsy...).
  Health has a structure of its own too (:func:`_health_by_structure`): the morphology
  medicine shares across the five languages (a combining form and a condition suffix:
  "gastr-itis", "artr-osi", "carcin-oma", "an-émie"; -ectomy, -plegia, -algia, -pathy),
  drugs by their WHO INN stems (-olol, -pril, -sartan, -statin, -mab, -prazole, -xaban...),
  disability words and the aids a person wears or uses (not the ones sold or designed), a
  dose or a capitalised name in a treatment frame ("Takes Eliquis daily"). Measured on the
  probe ``data/sensitive/probe/health_structure.jsonl`` (85 conditions, 48 look-alikes):
  structure alone 16/85 -> 83/85 found, 0/48 look-alikes held before and after.
  No list closes the class (a drug, a device, a party or a union by its name: "takes
  sertraline", "syndiqué à la CGT", "porta un apparecchio acustico"), so a learned model
  (:mod:`.sensitive_model`, trained by ``tools/train_sensitive.py``) reads the meaning too.
  It reads the note without the runs of capitalised words the brand reader calls brands
  (:func:`model_view`): "Christian Dior" is a designer, not a faith. Where the structure finds
  nothing and the model's score is in an uncertain band, a sentence stage decides in its place
  (:mod:`.sensitive_stage`): "Sings in the tenor section" states no category.
- **Mentioning a topic is not stating a fact about the person**: "follows European monetary
  policy", "works in healthcare" and "uses fingerprint unlock" are not special categories.
  The cost of a miss is a sensitive note kept under ordinary legitimate interest; the cost
  of a false hold is one confirmation question, so ambiguous phrasings lean to holding.

Matching runs on the folded (accent-free), lower-cased text and returns category names only.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from enum import StrEnum

from memory_service.core.model import Reason, ReasonCode
from memory_service.core.privacy.brands import reads_as_brand
from memory_service.core.privacy.sensitive_model import (
    ANY,
    SensitiveModel,
    default_sensitive_model,
)
from memory_service.core.privacy.sensitive_stage import SensitiveStage, default_sensitive_stage
from memory_service.core.privacy.vocabulary import ANIMAL_NOUNS

EXPLICIT_CONSENT = "explicit_consent"


class SensitiveCategory(StrEnum):
    HEALTH = "health"
    RELIGION = "religion_or_belief"
    SEXUAL_ORIENTATION = "sex_life_or_orientation"
    ETHNIC_ORIGIN = "ethnic_origin"
    POLITICAL_OPINION = "political_opinion"
    UNION_MEMBERSHIP = "union_membership"
    GENETIC = "genetic"
    BIOMETRIC = "biometric"
    CRIMINAL_RECORD = "criminal_record"


# A copula or an article right before a word that describes the person ("is a devout ...",
# "est", "es", "ist", "è", "soy", "bin"), optionally with an intensifier in between; the
# infinitive and the subjunctive of a guess too ("seems to be", "puede que sea", "parece
# ser", "qu'il soit", "che sia", "zu sein").
_COPULA = (
    r"(?:is|am|are|was|been|being|be|a|an|est|suis|etait|etre|soit|un|une|es|soy|era|fue|sea|ser"
    r"|un|una|ist|bin|war|sein|ein|eine|e|sono|era|sia|essere|uno|una)"
)
# A verb "to be" alone: an ideology after an article is too often a measure ("a conservative
# estimate", "a liberal amount").
_BE = r"(?:is|am|are|was|est|suis|etait|es|soy|era|fue|ist|bin|war|e|sono)"
_DEVOUT = (
    r"(?:(?:devout|practising|practicing|observant|strict|lifelong|committed|fervent|pratiquant|e"
    r"|croyant|e|fervente?|practicante|devot[oa]|glaubige[rn]?|praktizierende[rn]?|strenge[rn]?"
    r"|praticante|devot[oa]|osservante)\s+)?"
)

# Medical suffixes (arthritis, arthrite, artritis, Arthritis, artrite; sclerosis, sclérose;
# carcinoma; anaemia, anémie; neuropathy; fibromyalgia; hemiplegia): a condition once a
# health verb comes first.
_MEDICAL_SUFFIX = (
    r"[a-z]{3,}(?:itis|itide|osis|emia|aemia|emie|plegia|plegie|phrenia|phrenie|frenia)"
)
_HEALTH_VERB = (
    r"(?:has|have|had|with|got|a|ai|avait|tiene|tengo|tenia|padece|sufre|hat|habe|hatte|ha|ho"
    r"|aveva|soffre|suffers from|souffre d[e']?|leidet an|leidet unter|soffre di)"
)
_HEALTH_HEADS = (
    # EN
    r"disease|disorder|syndrome|illness|allerg(?:y|ies|ic)|intoleran(?:t|ce)|cancer|tumou?r"
    r"|infection|deficiency|impairment|disabilit(?:y|ies)|chronic pain|diagnos(?:is|ed)"
    r"|medication|chemotherapy|chemo|dialysis|insulin|therapy for|in remission"
    r"|pregnan(?:t|cy)|wheelchair|hearing aid|mental health|panic attacks?|eating disorder"
    r"|(?:is|was) (?:deaf|blind|autistic|diabetic|epileptic|asthmatic|anorexic|bipolar|disabled)"
    # FR
    r"|maladie|syndrome|allergi(?:e|que)s?|intoleran(?:t|te|ce)|handicapee?|diagnostiquee?"
    r"|en situation de handicap|porteur d'un handicap"
    r"|traitement (?:contre|pour)|sous traitement|enceinte|grossesse|fauteuil roulant"
    r"|(?:est|suis) (?:sourde?|aveugle|autiste|diabetique|epileptique|asthmatique|bipolaire)"
    # ES
    r"|enfermedad|trastorno|sindrome|alergi(?:a|co|ca)s?|intoleran(?:te|cia)|discapacidad"
    r"|diagnosticad[oa]|tratamiento (?:para|contra)|embarazada|embarazo|silla de ruedas"
    r"|(?:es|soy) (?:sord[oa]|ciego|ciega|autista|diabetic[oa]|epileptic[oa]|asmatic[oa])"
    # DE
    r"|krankheit|erkrankung|erkrankt|storung|syndrom|allergi(?:e|sch)|unvertraglich\w*"
    r"|behinderung|behindert|diagnose (?:von|mit)|diagnostiziert|medikament\w*|schwanger\w*"
    r"|rollstuhl"
    r"|(?:ist|bin) (?:taub|blind|autist\w*|diabetiker\w*|epileptiker\w*|asthmatiker\w*)"
    # IT
    r"|malattia|disturbo|sindrome|allergi(?:a|co|ca|e)|intolleran(?:te|za)|disabilita"
    r"|diagnosticat[oa]|in cura per|incinta|gravidanza|sedia a rotelle"
    r"|(?:e|sono) (?:sord[oa]|ciec[oa]|autistic[oa]|diabetic[oa]|epilettic[oa]|asmatic[oa])"
)
# Conditions usually named without a head noun, in the five languages (folded spellings).
_NAMED_CONDITIONS = (
    r"diabetes|diabete|asthma|asthme|asma|epilepsy|epilepsie|epilepsia|epilessia|migraines?"
    r"|migrana|migrane|emicrania|hypertension|hipertension|ipertensione|bluthochdruck"
    r"|depression|depresion|depressione|clinical depression|anxiety disorder|adhd|tdah|adhs"
    r"|autism|autisme|autismo|autismus|dyslexia|dyslexie|dislexia|legasthenie|dislessia"
    r"|coeliac|coeliaque|celiac|celiaque|celiac[oa]|zoliakie|celiachia|crohn'?s?|multiple sclerosis"
    r"|sclerose en plaques|esclerosis multiple|multiple sklerose|sclerosi multipla"
    r"|parkinson'?s?|alzheimer'?s?|dementia|demence|demencia|demenz|schizophreni\w+"
    r"|carcinoma|melanoma|lymphoma|glaucoma|myeloma|fibromyalgia|fibromyalgie|fibromialgia"
    r"|neuralgia|neuropathy|neuropathie|anorexi[ac]|bulimi[ac]"
    r"|esquizofrenia|schizofrenia|hiv|vih|sida|long covid|covid longue|cancer|cancro"
    r"|krebs|leukemia|leucemie|leucemia|leukamie|bipolar\w*|bipolaire|ptsd|tept|tdah"
)
_HEALTH = (
    rf"(?:{_HEALTH_HEADS}|{_NAMED_CONDITIONS}|(?<![a-z]){_HEALTH_VERB}\s+(?:an?\s+)?"
    rf"{_MEDICAL_SUFFIX}"
    r"|diagnosed with|living with|treated for|recovering from|takes \w+ for|suffers? from"
    r"|souffre d|soffre di|padece|sufre de|leidet (?:an|unter)"
    r"|suivi pour|soigne pour|atteint[e]? d[e']|en tratamiento|in behandlung|in terapia)"
)

# --- Health by structure: the morphology medicine shares across the five languages. ---
#
# A condition is named by a Greek or Latin combining form and a suffix ("gastr" + "itis",
# "gastrite", "Gastritis", "gastrite"; "arthr" + "ose", "artrosi", "artrosis"): the suffix
# alone decides where it has no everyday look-alike (-itis, -ectomy, -plegia, -algia,
# -pathy, -emia, -phobia), the combining form before it decides where it has one ("site",
# "rose", "famosi", "aroma"). A drug is named by its WHO INN stem (-olol, -pril, -sartan,
# -statin, -mab, -prazole...), a disability or an aid by its few words, a treatment by its
# frame (a dose; "takes <Name> daily"). Each family keeps the stems of its look-alikes out
# ("nostalgia", "academia", "sympathy", "homophobia").

# Suffixes with no everyday look-alike once a stem of three letters comes first.
_CONDITION_SUFFIX = (
    r"it(?:is|ide|iden)|ectom(?:y|ies|ie|ia|ias)|ektomie\w*|pleg(?:ia|ie|ic|ique|ico|ica|iker\w*)"
    r"|algi(?:a|as|e|en)|path(?:y|ies|ie|ia)|patia|phobi(?:a|as|e|c|que)|fobi(?:a|co|ca)"
)
# Everyday words with those suffixes: nostalgia, sympathy and empathy, osteopathy (a trade),
# homophobia.
_NOT_CONDITION = re.compile(
    r"nostalg|sympath|empath|apat|telepat|homeopat|osteopat|naturopat|allopat|simpat|empat"
    r"|homophob|omofob|homofob|xenophob|xenofob|transphob|islamophob|judeophob"
)
# Combining forms, per suffix family: inflammation (-ite, fr/it), degeneration (-ose, -osi,
# -osis, -iasis), tumour (-oma, -ome, -om), blood (-emia, -ämie, -emic: "academia",
# "ennemie", "islamique", "dinamica" have none).
_INFLAMED = (
    r"arthr|artr|tendin|bronch|hepat|epat|gastr|sinus|ot|cyst|cist|col|kol|rhin|rin|derm"
    r"|dermat|mening|append|appendic|conjonctiv|conjunctiv|congiuntiv|laryng|laring|pharyng"
    r"|faring|vagin|prostat|gingiv|gengiv|uve|encephal|encefal|card|pancreat|nephr|nefr"
    r"|diverticul|epicondyl|burs|fasci|capsul|labyrinth|labirint|neur|nevr|sigmoid|oesophag"
    r"|esophag|esofag|duoden|thyroid|tiroid|kerat|cherat|blephar|blefar|stomat|gloss|mast|orch"
    r"|salping|endometr|cervic|urethr|uretr|spondyl|trache|pleur|pneumon|polmon|periton"
    r"|arter|phleb|fleb|myos|mios|follicul|balan|aden|lymphang|linfang|enter|rect|proct"
)
_DEGENERATED = (
    r"arthr|artr|thromb|tromb|tubercul|tubercol|tuberkul|scler|skler|fibr|cirrh|cirr|zirrh"
    r"|scoli|skoli|psych|psic|neur|nevr|endometri|osteopor|mucoviscid|toxoplasm|borreli"
    r"|mononucle|sten|necr|nekr|ankyl|acid|amyloid|sarcoid|sarkoid|candid|myc|mic|myk|dermat"
    r"|leptospir|brucell|salmonell|listeri|chromat|kyph|cif|lord|psor|lith|halit|nephr|nefr"
)
_TUMOURED = (
    r"carcin|karzin|melan|lymph|linf|glauc|glauk|myel|miel|sarc|sark|gli|fibr|aden|lip|hemat"
    r"|haemat|hamat|emat|mening|meningi|blast|my|mi|terat|angi|astrocyt|hepat|epat|mesotheli"
    r"|semin|papill|granul|ather|myx|cholesteat|neurin|neur|plasmocyt"
)
_BLOOD = (
    r"an|leuk|leuc|glyc|glyk|glic|gluc|lip|lipid|isch|sept|septic|setti|ur|ox|kal|natr"
    r"|cholesterol|colesterol|cholesterin|thalass|talass|bacter|batter|vir|tox|calc|ferr"
)
_SUFFIXED = re.compile(rf"[a-z]{{2,}}(?:{_CONDITION_SUFFIX})")
_MORPHOLOGY = (
    rf"(?:[a-z]*(?:{_INFLAMED})(?:ite|iti)s?"
    rf"|[a-z]*(?:{_DEGENERATED})(?:o|ia)(?:se|si|sis|ses)"
    rf"|[a-z]*(?:{_TUMOURED})(?:oma|omas|ome|omes|om|ome|omi)"
    rf"|[a-z]*(?:{_BLOOD})(?:a|ae|e)mi(?:a|as|e|en|c|que|ques|co|ca|ci|che)"
    rf")"
)
# WHO INN stems (the published classification of drug-name stems), with the endings the
# five languages add (amoxicilline, omeprazol, atorvastatina, Amlodipin, eparina); "-o" only
# where Italian and Spanish give it (omeprazolo, amlodipino), not "Fiumicino", "centralino".
_DRUG_STEM = (
    r"(?:[a-z]{2,}(?:olol|pril|sartan|statin|[uio]mab|azol|cil?lin|(?:my|mi)cin|dipin|azepam"
    r"|azolam|tidin|gliptin|gliflozin|floxacin|limus|faxin|trexat|(?:ciclo|clo|fo|ami|na|tegra|pre|bu|as|desi)vir"
    r"|xaban|gatran|tinib|oxetin|pramin|triptan|semid|thiazid|profen|fenac|afil"
    r"|formin|glutid|lukast|thyroxin|tiroxin|cyclin|ciclin|dronat|setron|peridol|[zi]apin"
    r"|azepin|(?:nis|tis|thas)on|isolon|barbital)|[a-z]*parin)(?:e|a|es|as|s)?"
    r"|[a-z]{2,}(?:azol|dipin|olol)o"
)
# Drug classes by their "anti-" shape (antidepressants, anticoagulants, Antiepileptika) and
# the few aids and treatments named without a stem.
_TREATMENT = (
    r"anti-?(?:depress|coagul|biot|histamin|psychot|hypertens|inflammat|infiammat|epilept"
    r"|convuls|diabet|retrovir|emet|arrhythm|aritm|rhumat|reumat|spasm|thromb|tromb|vertig"
    r"|depre|koagul|biotik)[a-z]*"
    r"|blood thinners?|beta[- ]?(?:blockers?|bloquants?|bloqueantes?|blocker|bloccanti)"
    r"|painkillers?|immuno-?suppress\w*|immunosoppress\w*|immunsuppress\w*"
    r"|(?:chemo|chimio|quimio|chemio|radio|strahlen)-?therap\w*|sleeping pills?|somniferes?"
    r"|somniferos?|schlaftabletten|sonniferi"
)
_DISABILITY = (
    # deafness and its aids
    r"deafness|surdite|sordera|taubheit|gehorlos\w*|sordita|hard of hearing|malentendant\w*"
    r"|hipoacusi\w*|schwerhorig\w*|ipoacusi\w*|ipoudent\w*|non udent\w*"
    # blindness and its aids
    r"|blindness|cecite|ceguera|blindheit|cecita|partially sighted|visually impaired"
    r"|malvoyant\w*|deficiente visual|sehbehindert\w*|ipovedent\w*|non vedent\w*"
    r"|colou?r-?blind|daltonien\w*|daltonic[oa]|farbenblind"
    # a lost limb, a treatment that makes a patient
    r"|amputee|amputee?s?|amputad[oa]s?|amputiert\w*|amputat[oa]"
    r"|(?:in|en|on|sous|under|unter|auf) (?:la |der )?(?:dialys\w*|dialis[ie]s?)"
    rf"|(?:^|[.;:]\s*|(?<![a-z]){_BE}\s+)dialysee?s?(?![a-z])|dialysiert\w*|dializzat[oa]"
    r"|dializad[oa]"
    r"|[a-z]{3,}(?<!privat)(?<!kassen)patient(?:in|en|innen)?"
)
# An aid or a device the person uses, wears or has ("uses a hearing aid", "porta un
# apparecchio acustico", "trägt ein Hörgerät"): the one who sells or designs them is not held.
_AID = (
    r"hearing aids?|appareils? auditifs?|protheses? auditives?|audifonos?|horgerat(?:e|en)?"
    r"|apparecchi(?:o)? acustic[oi]|cochlear implants?|implants? cochleaires?"
    r"|implantes? cocleares?|cochlea-?implantat|impiant[oi] cocleari?|guide dogs?"
    r"|chiens?[- ]guides?|chien d'aveugle|perros?[- ]guias?|blindenhund|cane guida"
    r"|prosthe(?:sis|ses|tic \w+)|protheses?|protesi|protesis|pacemaker|stimulateur cardiaque"
    r"|marcapasos|herzschrittmacher|crutch(?:es)?|bequilles|muletas|krucken|stampelle"
    r"|rollator|deambulatore|insulin pump|pompe a insuline|bomba de insulina|insulinpumpe"
    r"|microinfusore|cpap|stoma|stomie|walking stick|canne blanche|canne anglaise|baston"
    r"|gehstock|blindenstock|bastone|sauerstoff\w*|oxygen (?:tank|concentrator)"
    r"|concentrateur d'oxygene|concentrador de oxigeno|concentratore di ossigeno"
    r"|inhaler|inhalateur|inhalador|inhalator|inalatore|epipen"
    r"|adrenalin[ae]?-?\s?pen|stylo d'adrenaline|auto-?in[jy]ector\w*|penna di adrenalina"
    # an interpreter in a sign language the person needs (not the one who interprets)
    r"|(?:sign[- ]language|langue des signes|lengua de signos|lingua dei segni|lis)"
    r"\s+interpret\w*|interpret\w*\s+(?:en |de |in |di )?(?:langue des signes"
    r"|lengua de signos|lingua dei segni|sign language|lis)|gebardendolmetsch\w*"
)
_USES = (
    r"uses|use|using|wears|wearing|has|had|have|got|needs|need|requires|with|walks with"
    r"|relies on|fitted|carries|carrying|keeps"
    r"|porte|portait|utilise|a|avait|avec|besoin d'un|usa|usaba|lleva|llevaba|tiene|necesita"
    r"|con|tragt|trug|hat|hatte|braucht|nutzt|mit|porta|portava|ha|aveva|indossa|cammina con"
)
_AIDED = rf"(?<![a-z])(?:{_USES})\s+(?:[a-z']+\s+){{0,3}}?(?:[a-z]+')?(?:{_AID})(?![a-z])"
# An adjective of the senses that is also everyday ("blind date", "ruido sordo", "taub" as
# numb): a condition after a copula, a degree or at the head of a subject-less note, or
# with an eye, an ear or a birth after it.
_SENSE_ADJECTIVE = r"(?:deaf|blind|sourde?|aveugle|sord[oa]|cieg[oa]|taub|ciec[oa])"
_SENSE = (
    rf"(?:(?:^|[.;:!?]\s*)|(?<![a-z]){_BE}\s+|(?:legally|partially|completely|totally|nearly"
    r"|almost|partiellement|completement|parcialmente|totalmente|teilweise|vollig|fast"
    r"|parzialmente|quasi|born|ne|nee|nacio|nato|nata|geboren|devenu|devenue|diventat[oa]"
    rf"|geworden|went|gone)\s+){_SENSE_ADJECTIVE}(?![a-z])"
    r"(?!\s+(?:date|dates|spot|spots|test|tests|tasting|side|alley|faith|trust|copy|review"
    r"|audition|noise|ache|pain|dolor|bruit|rumore|geraeusch|gerausch|rendez-vous|cita))"
    rf"|(?<![a-z]){_SENSE_ADJECTIVE}\s+(?:in one eye|in (?:the |his |her |my )?(?:left|right)"
    r" (?:ear|eye)|from birth|since birth|de naissance|d'un oeil|de nacimiento|de un ojo"
    r"|de un oido|von geburt an|auf einem (?:auge|ohr)|dalla nascita|da un (?:occhio|orecchio))"
)
# A mind the note names (a guess too: "vermutlich depressiv", "seems depressed"), and the
# person-words of the common named conditions, derived from their stems ("sans doute
# diabétique", "Diabetiker", "epilettico", "asthmatic", "autistisch").
_MIND = (
    # a fellowship of recovery, by its name ("Alcoholics Anonymous", "Anonyme Alkoholiker")
    r"(?:alcoholics|narcotics|gamblers|overeaters|alcooliques|narcotiques|joueurs|alcoholicos"
    r"|narcoticos|jugadores|alcolisti|narcotici|giocatori) (?:anonymous|anonymes|anonimos"
    r"|anonimi)|anonyme (?:alkoholiker|narkotiker|spieler)|"
    r"(?:uses|walks with|with) an? (?:walking |white )?cane|"
    r"panikattacke\w*|attaques? de panique|ataques? de panico|attacc(?:o|hi) di panico|"
    r"seizures|carpal tunnel|canal carpien|tunel carpiano|karpaltunnel\w*|tunnel carpale|"
    r"hormone therapy|terapia hormonal|hormontherapie|terapia ormonale|traitement hormonal|"
    r"hormonotherapie|krankgeschrieben|arret maladie|baja medica|on sick leave|"
    r"greffe (?:de |du |d')(?:rein|foie|coeur|poumon|moelle|cornee|pancreas)|"
    r"trasplante de (?:rinon|higado|corazon|pulmon|medula|cornea)|"
    r"trapianto di (?:rene|fegato|cuore|polmone|midollo|cornea)|[a-z]+transplantation|"
    r"(?:has|have|had|having) (?:severe |chronic |social |generali[sz]ed )?anxiety|"
    r"movilidad reducida|mobilite reduite|reduced mobility|mobilita ridotta|ridotta mobilita|"
    r"eingeschrankte mobilitat|gehbehindert\w*|"
    r"diabet\w+|epile(?:pt|tt)\w+|as(?:th)?mati\w+|autisti\w+|autist(?:in|en)?|"
    r"depressed|depressive|depressif|depressive|deprime[e]?|deprimid[oa]|depresiv[oa]"
    r"|depressiv\w*|deprimiert|depress[oa]|suicidal|suicidaire|suicida|suizidal"
    r"|alcoholic|alcoolique|alcoholic[oa]|alkoholiker\w*|alkoholkrank\w*|alcolizzat[oa]"
    r"|alcolista|toxicomane|drogadict[oa]|drogensuchtig|tossicodipendente|burn-?out"
    r"|insomnia|insomnie|insomnio|insonnia|schlaflosigkeit|anorexi\w+|bulimi\w+"
    r"|magersucht\w*|magersuchtig"
)
# A dose (a number and a unit of medication), in a treatment frame or before "of".
_TAKES = (
    r"(?:takes|taking|took|is on|on|prend|prenait|toma|tomaba|nimmt|nahm|prende|assume"
    r"|prescribed|prescrit[e]?|recetad[oa]|verschrieben|prescritt[oa])"
)
_DOSE = (
    rf"{_TAKES}\b[^.;\n]{{0,40}}?\d+(?:[.,]\d+)? ?(?:mg|mcg|ug|iu|ui)(?![a-z])"
    r"|\d+(?:[.,]\d+)? ?(?:mg|mcg)(?: (?:of|de|d'|di|von)(?![a-z]))"
)
# German compounds end in their medical head ("Herzerkrankung", "Lungenentzündung").
_DE_COMPOUND = (
    r"[a-z]{3,}(?:krankheit|erkrankung|entzundung|infarkt|insuffizienz|allergie|tumor"
    r"|(?<!fluss)krebs|intoleranz|unterfunktion|uberfunktion)(?:en)?"
    r"|[a-z]*(?:behindert\w*|behinderung)|rollstuhlfahrer\w*"
    # a "Störung" the person has ("hat eine generalisierte Angststörung"), not an outage
    r"|(?:hat|habe|hatte|mit|leidet an|leidet unter|diagnostiziert)\s+(?:eine[rnm]?\s+)?"
    r"(?:[a-z]+\s+)?[a-z]{3,}storung(?:en)?"
)
# Conditions by prefix and organ ("hypothyroïdie", "ipotiroidea", "iperteso"), learning
# disorders by "dys-" ("dyslexique", "dislessico"), blood and immunity by their Greek stems,
# heart and brain events, surgery on a body part, a transplant, sobriety, remission.
_CONDITION_SHAPE = (
    r"(?:hypo|hyper|ipo|iper|hipo|hiper)-?(?:thyr|tiro|tens|tes|tend|glyc|glic|glyk|kali|natr"
    r"|chol|lipid|acus)\w*"
    r"|dys(?:lex|orthograph|calcul|kalkul|prax|phasi|graph)\w*|dis(?:less|lex|calcul|prass"
    r"|grafi|ortograf)\w*|legasthen\w*"
    r"|(?:ha?e|a|e)mophil\w*|hemofil\w*|emofil\w*|seropositi\w*|sieropositiv\w*"
    r"|seropositiv\w*|infarct\w*|infart\w*|infarkt\w*|ictus|schlaganfall\w*|cataract\w*"
    r"|katarakt\w*|catarat\w*|(?:grau|grun)\w* star|insulin[ae]?|invalidita|invalidite"
    r"|invalidez|invalid[oa] civile|[a-z]+ transplant(?: recipient)?|transplantiert\w*"
    r"|trasplantad[oa]|trapiantat[oa]|en remission|en remision|in remissione"
    r"|(?:opere|operee|operado|operada|operato|operata)\s+(?:du|de la|de l'|des|aux|de|del"
    r"|al|alla|allo|ai|agli|alle|d'un|d'une|di)\s|(?:had|underwent) (?:\w+ )?surgery"
    r"|(?:sober|abstinent\w*|sobri[oa]|trocken)\s+(?:for|since|depuis|desde|seit|da)\s"
    r"|(?:years?|months?|ans|anos|jahren|anni|mesi|meses|mois) (?:sober|abstinent\w*"
    r"|sobri[oa]|trocken|sin beber|sans alcool)"
    r"|fractur\w*|frattur\w*|fraktur\w*|in a cast|dans le platre|ingessat[oa]|escayolad[oa]"
)
_HEALTH_STRUCTURE = (
    rf"(?:{_MORPHOLOGY}|{_DRUG_STEM}|{_TREATMENT}|{_DISABILITY}|{_MIND}|{_DE_COMPOUND}"
    rf"|{_CONDITION_SHAPE})"
)
# "Takes <Name> daily": a capitalised name (the original case) between a take verb and a
# rhythm is a medicine ("Takes Eliquis daily", "Prend du Doliprane le soir"); German, which
# capitalises every noun, is left out ("Nimmt jeden Morgen den Bus" has its article anyway).
_TAKE = (
    r"(?<![\w])(?:[Tt]akes|[Pp]rend(?: du| de la| de l'| des| sa| son| ses)?|[Tt]oma|[Pp]rende"
    r"(?: il| la| lo| l')?)\s+(?:[A-Z][a-z]{3,}|[A-Z]{2,}[a-z]*)"
)
_RHYTHM = (
    r"daily|every (?:morning|evening|night|day)|twice a day|once a day|at night"
    r"|in the (?:morning|evening)|tous les (?:jours|matins|soirs)|chaque (?:jour|matin|soir)"
    r"|le (?:matin|soir)|cada (?:dia|día|mañana|noche)|por la (?:mañana|noche)"
    r"|ogni (?:giorno|mattina|sera)|la (?:sera|mattina)|al giorno"
    r"|for (?:his|her|my|the)? ?\w+|pour|contre|para|per|contro|against|after|après|tras|dopo"
    r"|since|depuis|desde|da"
)
# ... or the name closes the clause ("Takes Prozac.", "Prende lo Xanax, ...").
_TAKES_NAME = re.compile(rf"{_TAKE}\s+(?:{_RHYTHM})(?![\w])|{_TAKE}\s*(?:[.;,]|$)")
# Treatment acronyms in their own case ("on PrEP", "HRT"), so "prep cook" stays a kitchen.
_TREATMENT_ACRONYM = re.compile(
    r"(?<![\w])(?:PrEP|HRT|TRT|SSRIs?|SNRIs?|CPAP|IVF|FIV|PMA|T[12]D|DT[12]|DM[12]|OCD|COPD|BPCO|EPOC)(?![\w])"
)


def _health_by_structure(text: str, folded: str) -> bool:
    """Health read from the shape of the words (see the block above), not one more word."""
    return bool(
        any(
            _SUFFIXED.fullmatch(word) and not _NOT_CONDITION.search(word)
            for word in _WORD.findall(folded)
        )
        or _HEALTH_STRUCTURE_PATTERN.search(folded)
        or _SENSE_PATTERN.search(folded)
        or _AIDED_PATTERN.search(folded)
        or _DOSE_PATTERN.search(folded)
        or _TAKES_NAME.search(text)
        or _TREATMENT_ACRONYM.search(text)
    )


_HEALTH_STRUCTURE_PATTERN = re.compile(rf"(?<![a-z]){_HEALTH_STRUCTURE}(?![a-z])")
_SENSE_PATTERN = re.compile(_SENSE)
_AIDED_PATTERN = re.compile(_AIDED)
_WORD = re.compile(r"[a-z]+")
_DOSE_PATTERN = re.compile(rf"(?<![a-z]){_DOSE}")

_RELIGION_TERMS = (
    r"muslim|moslem|christian|catholic|protestant|evangelical|mormon|jehovah'?s witness"
    r"|evangelic[oa]|evangelique|jewish|jew|hindu|buddhist|sikh|atheist|agnostic"
    r"|orthodox christian|quaker|baptist"
    r"|musulman[e]?|chretien(?:ne)?|catholique|protestant[e]?|juif|juive|hindou[e]?|bouddhiste"
    r"|athee|agnostique|musulman[a]?|cristian[oa]|catolic[oa]|protestante|judi[oa]|hindu"
    r"|budista|ate[oa]|agnostic[oa]|katholisch\w*|evangelisch\w*|jud(?:e|in|isch\w*)|christ(?:in)?"
    r"|muslimisch\w*|buddhist\w*|atheist\w*|cattolic[oa]|ebre[oa]|musulman[oa]|buddista"
)
_RELIGION = (
    rf"(?:(?<![a-z]){_COPULA}\s+{_DEVOUT}(?:{_RELIGION_TERMS})(?![a-z])"
    rf"|(?:{_RELIGION_TERMS}) (?:faith|religion|church|community|believer|foi|fe|glaube|fede)"
    r"|religion|religious|religieu(?:x|se)|religios[oa]|religios\w*|religione|religioso|religiosa"
    r"|goes to (?:church|mass|mosque|synagogue|temple)|attends (?:church|mass|mosque|synagogue)"
    r"|prays|prie|reza|betet|prega|ramadan|shabbat|sabbath|observes lent|careme|cuaresma"
    r"|fastenzeit|quaresima|halal|kosher|casher|cacher|koscher|va a la (?:misa|iglesia|mezquita)"
    r"|va a messa|va (?:a la messe|a l'eglise|a la mosquee)|geht (?:in die|zur) (?:kirche|messe"
    r"|moschee|synagoge)|in die messe|zur messe|a messa|alla messa)"
)
_ORIENTATION = (
    r"(?:gay|lesbian|lesbienne|lesbiana|lesbica|lesbisch|bisexual\w*|bisexuel\w*|bisessual\w*"
    r"|bisexuell\w*|homosexual\w*|homosexuel\w*|homosessual\w*|omosessual\w*|homosexuell\w*"
    r"|schwul\w*|queer|asexual|pansexual|transgender|transgenre|transexual\w*|transsexuel\w*"
    r"|trans (?:woman|man)|same-sex (?:partner|husband|wife|couple|spouse|marriage)"
    r"|coming out|sexual orientation|orientation sexuelle|orientacion sexual"
    r"|sexuelle orientierung|orientamento sessuale)"
)
_ETHNIC = (
    r"(?:of [a-z-]+ (?:descent|heritage|ancestry|origin|extraction)|ethnic(?:ity)?|ethnie"
    r"|ethnic (?:origin|background|group|minority)|etnia|ethnisch\w*|racial"
    rf"|(?<![a-z]){_COPULA} (?:d'origine|de origen|di origine) [a-z]+"
    r"|(?:ist|sind) [a-z]+ (?:herkunft|abstammung)|[a-z]+ (?:herkunft|abstammung)"
    r"|gitan[oa]?|indigenous|autochtone|indigena|aborigin\w*)"
)
_IDEOLOGY = (
    r"(?:conservative|liberal|progressive|socialist|communist|libertarian|republican|democrat"
    r"|left-wing|right-wing|far-left|far-right|leftist|de gauche|de droite|socialiste"
    r"|communiste|ecologiste|conservat(?:eur|rice)|de izquierdas?|de derechas?|socialista"
    r"|comunista|conservador[a]?|konservativ\w*|sozialist\w*|kommunist\w*|links|rechts"
    r"|di sinistra|di destra|conservatore|conservatrice)"
)
# Membership of a party, by the structure "member of" + a party: the word for a party, or the
# name of one. The names are a closed list, the parties with seats in the national parliaments
# of the UK, US, France, Spain, Germany and Italy (the parliaments' own lists, 2024-2025),
# in their folded short and long forms; names that are also common words ("Horizons",
# "Azione", "Modem") are left out. They are read only after a word of membership, so "votes
# Labour" and "the Greens committee" are the vote verbs' and nobody's.
_MEMBER = (
    r"(?:members?|membre|adherente?|militante?s?|encartee?|afiliad[oa]|socio|socia|mitglied"
    r"|iscritt[oa]|tesserat[oa])"
)
_PARTY_GLUE = (
    r"(?:\s*(?:d'|l')|\s*(?:of|the|du|de|la|le|les|des|au|aux|a|al|del|los|las|bei|den|der|die|im|in"
    r"|della|dei|degli|alla|ai|nel|nella|dello|longtime|lifelong|de longue date|seit|depuis"
    r"|desde|da)(?![a-z])){0,4}\s*"
)
_PARTY_NAME = (
    r"(?:party|parti|partido|partei|partito|labour|conservatives|tories|tory party|lib dems?"
    r"|liberal democrats|snp|plaid cymru|greens|green party|reform uk|ukip|democrats"
    r"|democratic party|republicans|republican party|gop|ps|parti socialiste|lr|republicains"
    r"|rn|rassemblement national|front national|lfi|france insoumise|renaissance|eelv"
    r"|ecologistes|pcf|reconquete|psoe|pp|partido popular|vox|podemos|sumar|ciudadanos|erc"
    r"|junts|pnv|bildu|spd|cdu|csu|fdp|afd|grunen|linken?|linkspartei|bsw|freien? wahler"
    r"|pd|partito democratico|fratelli d'italia|fdi|lega|forza italia|m5s"
    r"|movimento (?:5|cinque) stelle|cinque stelle|italia viva|avs|sinistra italiana)"
)
_PARTY_MEMBER = rf"(?:{_MEMBER}{_PARTY_GLUE}{_PARTY_NAME}|{_PARTY_NAME}-?mitglied)"
_POLITICAL = (
    rf"(?:{_PARTY_MEMBER}"
    r"|votes? (?:for |labour|tory|green|conservative|democrat|republican|[a-z]+ in )"
    r"|voted (?:for |labour|tory|green|conservative|democrat|republican|[a-z]+ in )"
    r"|vote (?:pour|a gauche|a droite)|vota (?:por|a|al|per|il|la|pd|psoe|pp)|votaba|votera"
    r"|wahlt (?:die |afd|spd|cdu|csu|fdp|grune|linke)|wahler (?:der|von)"
    r"|political (?:views|opinions?|affiliation|leanings?)|party member|member of the \w+ party"
    r"|supporter of the \w+ party|opinion politique|opinions politiques"
    r"|membre du parti|partido politico|militante del|afiliad[oa] al partido|ideologia"
    r"|politische (?:einstellung|meinung|uberzeugung)|parteimitglied|mitglied der \w+ partei"
    r"|opinione politica|iscritt[oa] al partito|tesserat[oa]"
    rf"|(?<![a-z]){_BE}\s+(?:an? |une? |una |uno )?(?:staunch |lifelong |convinced |convaincu"
    r" |convencid[oa] )?"
    rf"{_IDEOLOGY}(?![a-z]))"
)
_UNION = (
    r"(?:union member|member of (?:the |a )?(?:[a-z']+ ){0,3}union|trade union|labou?r union"
    r"|teamsters|union rep|unionized|unionised|union dues|syndique[e]?s?|membre (?:du|d'un)"
    r" syndicat|adherent[e]? (?:du|d'un|a la) (?:syndicat|cgt|cfdt|fo)|sindicato|sindicad[oa]"
    r"|sindicalista|gewerkschaft\w*|sindacat\w*|sindacalista"
    r"|iscritt[oa] (?:al|alla) (?:cgil|cisl|uil))"
)
_GENETIC = (
    r"(?:genetic (?:test|testing|data|results?|profile|predisposition|condition|disorder|marker)"
    r"|dna (?:test|results?|profile|sample)|brca[12]?|(?:test|analyse|donnees) genetiques?"
    r"|(?:prueba|analisis|datos) geneticos?|(?:test|dati|analisi) genetic[oi]"
    r"|genetische (?:daten|untersuchung|test\w*)|gentest|dna-test|test (?:du|de|del) (?:adn|dna)"
    r"|prueba de adn)"
)
_BIOMETRIC = (
    r"(?:biometric (?:data|template|record|profile|scan|id)|fingerprints? (?:data|template|record"
    r"|scan|on file)|face ?(?:print|template|scan data)|iris scan|retina scan|voiceprint"
    r"|donnees biometriques|empreintes? digitales?|datos biometricos|huellas? dactilar(?:es)?"
    r"|biometrische daten|fingerabdr\w*|dati biometrici|impront[ae] digital[ei])"
)
# A fingerprint or a face that unlocks a device or logs in ("Meldet sich per Fingerabdruck
# an", "unlocks the app with Face ID", "se connecte avec Face ID") is a way in, not biometric
# data about the person held by anyone: not a special category. Only when the print or the face
# is the instrument of the login ("per", "with", "avec", "con"... or Face ID / Touch ID), and
# the note does not say it is stored, enrolled or registered somewhere: "her face unlock opens
# her twin's phone too" says something about her face and stays held.
_LOGIN = re.compile(
    r"(?<![a-z])(?:unlock\w*|log(?:s|ging)? ?in|sign(?:s|ing)? ?in|entsperr\w*|anmeld\w*"
    r"|meldet sich|einlogg\w*|loggt sich|debloqu\w*|deverrouill\w*|se connecte|connexion"
    r"|desbloque\w*|inicia sesion|iniciar sesion|accede\w*|sblocc\w*|opens? the app"
    r"|ouvre l'app\w*|abre la app|apre l'app)(?![a-z])"
)
_BY_PRINT_OR_FACE = re.compile(
    r"(?<![a-z])(?:(?:per|with|using|via|by|avec|par|con|mit|tramite|col)\s+(?:(?:her|his|their"
    r"|a|the|son|sa|la|el|il|l'|seinem|ihrem|dem)\s*)?(?:fingerabdr\w*|fingerprints?"
    r"|empreintes?(?: digitales?)?|huellas?(?: dactilar\w*)?|impront[ae](?: digital[ei])?"
    r"|gesichtserkennung|reconnaissance faciale|riconoscimento facciale|reconocimiento facial"
    r"|face recognition|facial recognition)|face id|touch id)(?![a-z])"
)
_STORED = re.compile(
    r"(?<![a-z])(?:data|template\w*|records?|on file|stor\w+|saved|regist\w+|enrol\w*|scan\w*"
    r"|database|collect\w*|gespeichert|speicher\w*|hinterleg\w*|erfass\w*|enregistr\w*"
    r"|conserv\w*|stock\w*|guard\w*|almacen\w*|salvat\w*|acquisit\w*|archiv\w*|modele"
    r"|modelo|modello|plantilla|vorlage|biometri\w*)(?![a-z])"
)


def _without_a_login(
    found: frozenset[SensitiveCategory], text: str
) -> frozenset[SensitiveCategory]:
    """``found`` without ``biometric`` when the note's print or face is only a way in (above)."""
    if SensitiveCategory.BIOMETRIC not in found:
        return found
    folded = _folded(text)
    if _LOGIN.search(folded) is None or _BY_PRINT_OR_FACE.search(folded) is None:
        return found
    if _STORED.search(folded) is not None:
        return found
    return found - {SensitiveCategory.BIOMETRIC}


_CRIMINAL = (
    r"(?:convicted|criminal conviction|prior convictions?|criminal record|criminal history"
    r"|felony|felon|misdemeanou?r|dui|dwi|jail|prison|incarcerated|probation|on parole"
    r"|paroled|arrested|sentenced|ex-convict"
    r"|sex offender|on bail|condamne[e]?s?|casier judiciaire|incarcere[e]?|garde a vue"
    r"|en sursis|condenad[oa]s?|antecedentes penales|carcel|prision|arrestad[oa]"
    r"|libertad condicional|vorbestraft|vorstrafe\w*|verurteilt|gefangnis|haftstrafe"
    r"|bewahrungsstrafe|auf bewahrung|fuhrungszeugnis|condannat[oa]|precedenti penali"
    r"|fedina penale|carcere|arrestat[oa]|liberta vigilata)"
)

_PATTERNS: tuple[tuple[SensitiveCategory, re.Pattern[str]], ...] = tuple(
    (category, re.compile(rf"(?<![a-z]){pattern}(?![a-z])"))
    for category, pattern in (
        (SensitiveCategory.HEALTH, _HEALTH),
        (SensitiveCategory.RELIGION, _RELIGION),
        (SensitiveCategory.SEXUAL_ORIENTATION, _ORIENTATION),
        (SensitiveCategory.ETHNIC_ORIGIN, _ETHNIC),
        (SensitiveCategory.POLITICAL_OPINION, _POLITICAL),
        (SensitiveCategory.UNION_MEMBERSHIP, _UNION),
        (SensitiveCategory.GENETIC, _GENETIC),
        (SensitiveCategory.BIOMETRIC, _BIOMETRIC),
        (SensitiveCategory.CRIMINAL_RECORD, _CRIMINAL),
    )
)

_CATEGORY = {category.value: category for category in SensitiveCategory}

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})
_LIGATURES = str.maketrans({"\u0153": "oe", "\u00e6": "ae"})


def _folded(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.translate(_APOSTROPHES))
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower()
    # NFKD leaves the ligatures whole: "cœliaque" must read as "coeliaque".
    return plain.replace("ß", "ss").translate(_LIGATURES)


def structural_categories(text: str) -> frozenset[SensitiveCategory]:
    """The categories the structure and the bounded lists find (the rules half)."""
    folded = _folded(text)
    found = {category for category, pattern in _PATTERNS if pattern.search(folded)}
    if SensitiveCategory.HEALTH not in found and _health_by_structure(text, folded):
        found.add(SensitiveCategory.HEALTH)
    return frozenset(found)


def learned_model() -> SensitiveModel:
    """The shipped model, read once per process (a file naming an unknown category stops the
    service at start)."""
    return default_sensitive_model(frozenset(_CATEGORY))


def learned_stage() -> SensitiveStage:
    """The shipped sentence stage (:mod:`.sensitive_stage`), checked against the shipped model
    once per process (a mismatch stops the service at start)."""
    return default_sensitive_stage(learned_model())


def sensitive_categories(
    text: str,
    model: SensitiveModel | None = None,
    keywords: Iterable[str] = (),
    stage: SensitiveStage | None = None,
) -> frozenset[SensitiveCategory]:
    """The special categories a note states about its person; empty for an ordinary note.

    The structure OR the learned model (:mod:`.sensitive_model`): either one holds the note.
    The structure also reads the ``keywords``; the model reads the text it was trained on.
    Where the structure finds nothing and the model's score falls in the band of the sentence
    stage (:mod:`.sensitive_stage`: the shipped one with the shipped model, else ``stage``),
    the stage decides in the model's place. Health said of an animal is the animal's
    (:func:`_an_animals_health`), whatever the keywords name.
    """
    if model is None or model is learned_model():
        model, stage = learned_model(), stage or learned_stage()
    found = _stated_categories(text, model, stage)
    if keywords:
        found = _without_a_login(found | structural_categories("\n".join((text, *keywords))), text)
    if found == {SensitiveCategory.HEALTH} and _an_animals_health(text, model):
        return frozenset()
    return found


def _stated_categories(
    text: str, model: SensitiveModel, stage: SensitiveStage | None = None
) -> frozenset[SensitiveCategory]:
    structural = structural_categories(text)
    view = model_view(text)
    learned: frozenset[str] = frozenset()
    if _left_to_read(text, view):
        scores = model.scorer.scores(view)
        score = model.hold_score(scores)
        if stage is not None and not structural and stage.reaches(score):
            held = stage.holds(score, text, model.scorer.thresholds[ANY].refuse)
            learned = model.named(scores) if held else frozenset()
        elif score >= model.scorer.thresholds[ANY].refuse:
            learned = model.named(scores)
    found = structural | {_CATEGORY[value] for value in learned}
    return _without_a_login(found, text)


# A clause whose subject is an animal: its first words an article or a possessive, at most two
# other words (an adjective, an age, a breed's word), then the animal's noun, and not its
# owner, walker or sitter after it ("Greyhound (9 yrs) is on daily insulin", "Le chat est
# traité pour une hyperthyroïdie", "Su perro mestizo de 12 años tiene artrosis", "Der Hund ist
# auf Phenobarbital eingestellt"; not "The dog's owner has diabetes", "Dog walker; epileptic").
_ANIMAL_SUBJECT = re.compile(
    r"\s*(?:(?:the|her|his|their|its|our|my|both|a|an|le|la|les|l'|son|sa|ses|leur|leurs|un|une"
    r"|el|los|las|su|sus|der|die|das|den|dem|sein|seine|ihr|ihre|unser|unsere|il|lo|i|gli|suo"
    r"|sua|suoi|loro|mio|mia)\s*)?(?:[\w-]+\s+){0,2}?"
    rf"(?:{ANIMAL_NOUNS})(?:e?s|n|x)?(?![\w'\u2019-])"
    r"(?!\s*(?:'s|\u2019s|owner|walker|sitter|trainer|groomer|breeder|minder|propri|due[nñ]|besitz"
    r"|halter|padron))",
    re.IGNORECASE,
)
# Where a clause ends: a sentence's end, a semicolon, a dash between spaces, a conjunction
# before a person as the next subject ("Her cat has asthma and she is allergic to cats").
_CLAUSE_BREAK = re.compile(
    r"[.;!?\n]\s+|\s[-\u2013\u2014]\s|,?\s(?i:and|but|while|et|mais|y|pero|und|aber|e|ma)\s+"
    r"(?=(?i:she|he|they|i|elle|il|ils|elles|ella|[ée]l|ellos|sie|er|lei|lui|the\s+(?:user"
    r"|customer|client|owner))(?![\w'\u2019]))"
)


def _an_animals_health(text: str, model: SensitiveModel) -> bool:
    """Whether the note's health is said of an animal: some clause has an animal as its
    subject (see above), and the clauses left once those are taken out state nothing
    sensitive ("Greyhound is on insulin - owner wants reminders"; not "The dog is fine; she
    has diabetes"). The rest is read without the sentence stage: the model's own threshold,
    which holds more, decides it."""
    clauses = _CLAUSE_BREAK.split(text)
    rest = [clause for clause in clauses if not _ANIMAL_SUBJECT.match(clause)]
    if len(rest) == len(clauses):
        return False
    left = " ".join(rest).strip()
    return not left or not _stated_categories(left, model)


# Two or more capitalised words in a row: a name, a brand, a party, a German noun phrase.
_CAPITALISED_RUN = re.compile(
    r"(?<![\w'\u2019-])[^\W\d_a-z][\w'\u2019-]*(?:\s+[^\W\d_a-z][\w'\u2019-]*)+"
)


def model_view(text: str) -> str:
    """The note as the model reads it: a run of capitalised words the brand reader calls a
    brand or a work (:func:`~memory_service.core.privacy.brands.reads_as_brand`: "wears
    Christian Dior fragrances", "viste de Carolina Herrera") is left out, so a designer's
    first name does not read as a faith. The structure still reads the whole note."""
    return _CAPITALISED_RUN.sub(
        lambda m: (
            " " if _is_capitalised(m.group()) and reads_as_brand(text, *m.span()) else m.group()
        ),
        text,
    )


# A word the model can read: four letters or more (function words are shorter or few).
_CONTENT_WORD = re.compile(r"[^\W\d_]{4,}")


def _left_to_read(text: str, view: str) -> bool:
    """Whether the model has anything to read once the brands are out: a note that was only
    brands and their glue ("Lit Victor Hugo et Annie Ernaux" reads "  et  .") is the brand
    reader's, and the model, which never saw such a fragment, abstains (the structure still
    reads the whole note). A note the brand reader left alone is always read."""
    return view == text or _CONTENT_WORD.search(view) is not None


def _is_capitalised(run: str) -> bool:
    return all(word[0].isupper() for word in run.split())


def check_sensitive(text: str, keywords: Iterable[str] = ()) -> list[Reason]:
    """One ``sensitive`` reason naming the categories (never the words that matched).

    The structure reads the text and the keywords; the model reads the text it was trained on.
    """
    found = sensitive_categories(text, keywords=tuple(keywords))
    if not found:
        return []
    return [Reason(ReasonCode.SENSITIVE, ", ".join(sorted(c.value for c in found)))]
