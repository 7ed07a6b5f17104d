import type { NameCuesRule } from './redaction-rule.js';

/**
 * The floor's name cues for the languages our users' assistants speak: English, Swahili, isiZulu,
 * isiXhosa, Afrikaans and Sesotho. Measured against the labelled corpus in
 * libs/redaction/corpus/ (see docs/privacy.md for the table and its floor).
 */
export const NAME_CUES_RULE: NameCuesRule = {
  kind: 'name_cues',
  name: 'name_cues',
  // isiZulu and isiXhosa glue these to a name: the personal prefix u- (uSipho), the copula ngu-
  // and its first and second persons (ngingu-, ndingu-, ungu-, singu-), the possessive ka- and its
  // agreements (likaSipho, wukaSipho), ku-/ko- (to), kwa- (at the home of), no-/na- (and, with),
  // also before ka- (nokaZanele), ngo- (by, about), nga- (by way of).
  prefixes: [
    'ngeka', 'ingeka', 'yeka', 'eka', 'yaka', 'zaka', 'lakwa', 'wakwa', 'yakwa', 'sakwa',
    'u', 'ngu', 'ngi', 'ngingu', 'ndi', 'ndingu', 'ungu', 'singu', 'ningu', 'yingu',
    'ka', 'lika', 'wuka', 'kuka', 'zika', 'sika', 'bika', 'yika', 'waka',
    'ku', 'ko', 'kwa', 'no', 'noka', 'na', 'ngo', 'nga', 'ngoka',
  ],
  introductions: [
    // English
    'my name is', "my name's", 'my names is', 'his name is', 'her name is', 'under the name', 'in the name of', 'name:', 'full name:',
    // Swahili
    'jina langu ni', 'naitwa', 'ninaitwa', 'jina lake ni', 'anaitwa', 'jina:', 'kwa jina la', 'jina la mgonjwa ni', 'jina la mteja ni',
    // isiZulu
    'igama lami ngu', 'igama lakhe ngu', 'igama:', 'ngibizwa ngo',
    // isiXhosa
    'igama lam ngu', 'ndibizwa ngo',
    // Afrikaans
    'my naam is', 'sy naam is', 'haar naam is', 'ek heet', 'naam:', 'van:',
    // Sesotho
    'ke nna', 'lebitso la ka ke', 'lebitso la me ke', 'lebitso la hae ke', 'ke bitswa', 'lebitso:',
  ],
  weak_introductions: [
    // Also said of other things than a person, so only before a capitalised word:
    // "call me back", "the file name is invalid", "jina langu limeandikwa vibaya".
    'call me', 'name is', "name's", 'the name is', 'surname is', 'first name is', 'jina langu', 'igama lami', 'igama lam', 'lebitso la ka',
    "i'm", 'i’m', 'i am', 'this is', "it's", 'it’s', 'speak to', 'speaking to', 'ask for', 'booked under', 'on behalf of', 'booking for', 'appointment for',
    'mimi ni', 'ni mimi', 'huyu ni', 'mwambie', 'kwa niaba ya',
    'yimi', 'ngikhuluma no', 'ndim', 'ndithetha no', 'ngingu', 'ndingu',
    'ek is', 'dis', 'dit is', 'hier is', 'hier praat', 'praat met', 'namens',
    'ke', 'ena ke', 'bua le',
    // A relative named after them: "my mother, Busisiwe Mthembu", "mtoto wa Njeri", "ngwana wa Dineo".
    'my mother', 'my father', 'my son', 'my daughter', 'my wife', 'my husband', 'my sister', 'my brother', 'my child', 'my friend',
    'mama yangu', 'baba yangu', 'mtoto wa', 'mke wangu', 'mume wangu', 'dada yangu', 'kaka yangu', 'rafiki yangu',
    'my ma', 'my pa', 'my seun', 'my dogter', 'my vrou', 'my man', 'my suster', 'my broer', 'my kind', 'die kind van',
    'mme wa ka', 'ntate wa ka', 'ngwana wa', 'mosadi wa ka', 'monna wa ka', 'ngwanaka', 'motswalle wa ka',
    // A field label: "Customer: Faith Wambui", "Mteja: Grace Achieng", "Igama lomthengi: Zodwa Ngcobo".
    'customer:', 'client:', 'patient:', 'caller:', 'guest:', 'contact:', 'mteja:', 'mgonjwa:', 'mpigaji:',
    'igama lomthengi:', 'umthengi:', 'isiguli:', 'igama lesiguli:', 'kliënt:', 'klient:', 'pasiënt:', 'moreki:', 'mokudi:',
  ],
  following: [
    'said', 'says', 'told me', 'called', 'will come', 'is coming', 'uthe', 'uthi', 'uzofika', 'uza kufika', 'alisema', 'amesema', 'anasema',
    'atakuja', 'het gesê', 'sê', 'sal kom', 'o itse', 'o re', 'o tla tla',
  ],
  titles: [
    'mr', 'mrs', 'ms', 'miss', 'dr', 'prof', 'sister', 'nurse', 'madam', 'sir',
    'bi', 'bw', 'bibi', 'bwana', 'mzee', 'mama', 'baba', 'daktari', 'mwalimu',
    'mnu', 'mnumzane', 'nkk', 'nkosikazi', 'nksz', 'nkz', 'gogo', 'mkhulu', 'sisi', 'bhuti', 'dokotela', 'mam', 'tata',
    'mnr', 'meneer', 'mev', 'mevrou', 'mej', 'juffrou', 'oom', 'tannie', 'dokter',
    'ntate', 'mme', 'nkhono', 'ausi', 'abuti',
  ],
  transfer_introductions: ['sent to', 'paid to', 'received from', 'from', 'to', 'kutoka kwa', 'kwa', 'imetumwa kwa', 'ku', 'kuya ku', 'vanaf', 'aan', 'ho'],
  greetings: [
    'hi', 'hello', 'hey', 'dear', 'thanks', 'thank you', 'good morning', 'good afternoon', 'good evening', 'bye', 'welcome',
    'habari', 'hujambo', 'jambo', 'asante', 'asante sana', 'karibu', 'shikamoo', 'salamu', 'kwaheri',
    'sawubona', 'sanibonani', 'ngiyabonga', 'siyabonga', 'hamba kahle', 'sala kahle',
    'molo', 'molweni', 'enkosi', 'enkosi kakhulu', 'ndiyabulela',
    'hallo', 'goeie môre', 'goeiemôre', 'goeiedag', 'goeiemiddag', 'goeienaand', 'dankie', 'baie dankie', 'totsiens', 'liewe',
    'dumela', 'dumelang', 'lumela', 'kea leboha', 'ke a leboha', 'sala hantle', 'tsamaya hantle',
  ],
  // Places take the same prefixes (kwaMashu, uMgungundlovu) and follow the same cues ("ke Maseru",
  // "this is Umlazi clinic"). Many are surnames as well (Zulu, Langa), so a place ends no name once
  // begun: "uSipho Zulu" is one name.
  places: [
    'Zulu', 'Natal', 'Natali', 'Thekwini', 'Mlazi', 'Umlazi', 'Mashu', 'Ndwedwe', 'Nkandla', 'Mtubatuba', 'Hlabisa', 'Dukuza', 'Mhlanga',
    'Mgungundlovu', 'Mhlathuze', 'Msunduzi', 'Mkhanyakude', 'Thukela', 'Mzinyathi', 'Mngeni', 'Mzimkhulu', 'Mthatha', 'Ntuzuma', 'Inanda',
    'Durban', 'Pinetown', 'Pietermaritzburg', 'Johannesburg', 'Jozi', 'Goli', 'Soweto', 'Gauteng', 'Pretoria', 'Pitoli', 'Tshwane', 'Cape',
    'Town', 'Kaapstad', 'Kapa', 'Rhini', 'Monti', 'Qonce', 'Gqeberha', 'Khayelitsha', 'Gugulethu', 'Langa', 'Nyanga', 'Mdantsane',
    'Thema', 'Nobuhle', 'Zakhele', 'Ndebele', 'Nonqaba', 'Xuma', 'Nyamazane', 'Mpumalanga', 'Limpopo', 'Africa', 'Afrika', 'Koloni',
    'Maseru', 'Lesotho', 'Bloemfontein', 'Mangaung', 'Qwaqwa', 'Welkom', 'Botshabelo', 'Thaba', 'Nchu', 'Free', 'State', 'Foreisetata',
    'Stellenbosch', 'Paarl', 'Worcester', 'Mitchells', 'Plain', 'Pretoria', 'Bellville', 'Wes-Kaap', 'Kaap', 'Noord', 'Oos', 'Suid',
    'Nairobi', 'Mombasa', 'Kisumu', 'Nakuru', 'Eldoret', 'Thika', 'Machakos', 'Kiambu', 'Westlands', 'Kilimani', 'Kibera', 'Dar', 'Salaam',
    'Bay', 'Arusha', 'Dodoma', 'Mwanza', 'Zanzibar', 'Kampala', 'Kenya', 'Tanzania', 'Uganda', 'Rwanda', 'Kigali',
  ],
  not_names: [
    // Days and months (isiZulu, isiXhosa, Sesotho, Swahili, Afrikaans, English): ngoMsombuluko, kuMashi.
    'Msombuluko', 'Lwesibili', 'Lwesithathu', 'Lwesine', 'Lwesihlanu', 'Mgqibelo', 'Sonto', 'Mvulo', 'Lwesibini', 'Cawa',
    'Januwari', 'Janyuwari', 'Februwari', 'Mashi', 'Matshi', 'Ephreli', 'Epreli', 'Meyi', 'Juni', 'Julayi', 'Agasti', 'Septhemba', 'Septemba',
    'Okthoba', 'Okthobha', 'Novemba', 'Disemba', 'Masingana', 'Nhlolanja', 'Ndasa', 'Mbasa', 'Nhlaba', 'Nhlangulana', 'Ntulikazi',
    'Ncwaba', 'Mandulo', 'Mfumfu', 'Lwezi', 'Zibandlela',
    'Mantaha', 'Labobedi', 'Laboraro', 'Labone', 'Labohlano', 'Moqebelo', 'Sontaha', 'Pherekgong', 'Hlakola', 'Hlakubele', 'Mmesa',
    'Motsheanong', 'Phupjane', 'Phupu', 'Phato', 'Lwetse', 'Mphalane', 'Pudungwana', 'Tshitwe',
    'Jumatatu', 'Jumanne', 'Jumatano', 'Alhamisi', 'Ijumaa', 'Jumamosi', 'Jumapili', 'Januari', 'Februari', 'Machi', 'Aprili', 'Mei',
    'Julai', 'Agosti', 'Oktoba', 'Desemba',
    'Maandag', 'Dinsdag', 'Woensdag', 'Donderdag', 'Vrydag', 'Saterdag', 'Sondag', 'Januarie', 'Februarie', 'Maart', 'Augustus', 'Desember',
    'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday', 'January', 'February', 'March', 'April', 'May', 'June',
    'July', 'August', 'September', 'October', 'November', 'December', 'Easter', 'Christmas', 'Khisimusi', 'Ramadan', 'Eid',
    // Languages, peoples and nationalities.
    'English', 'Ingisi', 'Xhosa', 'Sotho', 'Sesotho', 'Mosotho', 'Basotho', 'Afrikaans', 'Swahili', 'Kiswahili', 'Kenyan', 'Mkenya',
    'South', 'African', 'Suid-Afrikaans', 'Afrikaner', 'Christian', 'Christen', 'Muslim', 'Moslem', 'Hindu', 'Hindoe', 'Mkristo', 'Mwislamu',
    // Institutions, services and brands.
    'Masipala', 'Mnyango', 'Hulumeni', 'Rhulumente', 'Mmuso', 'Serikali', 'Nkulunkulu', 'Thixo', 'Modimo', 'Mungu', 'Mengameli', 'Home', 'Affairs', 'SASSA', 'Clinic',
    'Klinikhi', 'Kliniek', 'Hospital', 'Sibhedlela', 'Police', 'Municipality', 'Munisipaliteit', 'Council', 'Department', 'Office', 'Ofisi',
    'Vodacom', 'Safaricom', 'Airtel', 'Telkom', 'Cell', 'Capitec', 'Absa', 'Nedbank', 'Standard', 'Bank', 'Equity', 'Shoprite', 'Checkers',
    'Pick', 'Eskom', 'Uber', 'Bolt', 'Google', 'WhatsApp', 'Whatsapp', 'Facebook', 'Pesa', 'Mpesa', 'Ecocash', 'PesaPal', 'Spa', 'Salon',
    // Titles and kinship words standing alone (the name after them is masked by the title cue).
    'Mama', 'Baba', 'Gogo', 'Mkhulu', 'Sisi', 'Bhuti', 'Ntate', 'Mme', 'Tata', 'Mam', 'Sir', 'Madam', 'Doctor', 'Dokotela', 'Daktari',
    'Nurse', 'Sister', 'Meneer', 'Mevrou', 'Oom', 'Tannie', 'Bibi', 'Bwana', 'Mzee', 'Mwalimu', 'Mnumzane', 'Nkosikazi',
    'Mr', 'Mrs', 'Ms', 'Miss', 'Dr', 'Prof', 'Bi', 'Bw', 'Mnu', 'Nkk', 'Nksz', 'Nkz', 'Mnr', 'Mev', 'Mej', 'Juffrou', 'Dokter', 'Nkhono', 'Ausi', 'Abuti',
    // Ordinary words written with a capital at the start of a sentence.
    'I', 'He', 'She', 'They', 'We', 'You', 'It', 'Someone', 'Nobody', 'Yeye', 'Yena', 'Hy', 'Sy', 'Hulle', 'Ena', 'Bona', 'The', 'This', 'That', 'There', 'Here', 'How', 'What', 'When', 'Where', 'Why', 'Who', 'Which', 'Can', 'Could', 'Would', 'Will',
    'Please', 'Thanks', 'Thank', 'Welcome', 'Good', 'Yes', 'No', 'Okay', 'Ok', 'Sure', 'Sorry', 'Great', 'Fine', 'Not', 'Available', 'Back', 'Urgent',
    'Team', 'All', 'Everyone', 'Customer', 'Client', 'Patient', 'Friend', 'Guest', 'Manager', 'Reception', 'Ontvangs', 'Support', 'Agent', 'Bot',
    'Almal', 'Yako', 'Mphathi', 'Mongameli',
    'Karibu', 'Asante', 'Sawa', 'Ndiyo', 'Hapana', 'Naomba', 'Tafadhali', 'Nina', 'Nataka', 'Habari', 'Mimi', 'Mteja', 'Mgonjwa',
    'Ngicela', 'Ngiyabonga', 'Siyabonga', 'Yebo', 'Kulungile', 'Ngifuna', 'Ngiyaxolisa', 'Sawubona', 'Sanibonani', 'Ikhasimende',
    'Molo', 'Molweni', 'Enkosi', 'Ewe', 'Hayi', 'Ndicela', 'Ndifuna', 'Unjani', 'Ndiyabulela', 'Umthengi',
    'Hallo', 'Dankie', 'Asseblief', 'Ja', 'Nee', 'Goed', 'Ek', 'Ons', 'Jy', 'Baie', 'Goeie', 'Totsiens', 'Kliënt',
    'Dumela', 'Lumela', 'Kea', 'Ke', 'Ee', 'Tjhe', 'Hantle', 'Kopa', 'Moreki', 'Mokudi',
  ],
  not_lowercase_names: [
    'not', 'also', 'already', 'still', 'on', 'in', 'the', 'a', 'an', 'and', 'is', 'was', 'spelled', 'spelt', 'written', 'same', 'correct',
    'wrong', 'below', 'above', 'there', 'here', 'unknown', 'withheld', 'private', 'missing', 'what', 'who', 'please',
    'ni', 'si', 'sio', 'nani', 'gani', 'hilo', 'hili', 'kama', 'na', 'pia', 'bado', 'tafadhali',
    'ubani', 'bani', 'ngubani', 'ngicela', 'ndicela', 'futhi', 'kanjani',
    'nie', 'ook', 'reg', 'wie', 'dieselfde', 'asseblief',
    'mang', 'eng', 'hape', 'kopa',
  ],
};
