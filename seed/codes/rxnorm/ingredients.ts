// RxNorm ingredients (IN) and precise ingredients (PIN) the tasks' conditions are treated with: first-, second- and
// third-line agents. Each row: RXCUI, RxNorm name, and other names clinicians write for the same ingredient
// (international names, abbreviations). Brand names are in ./brands.ts.
//
// Sources of the RXCUIs (every code below was read from one of them, or the line says why it is kept):
//   [seed]  codes the population generator already emitted (kept exactly as they were).
//   [VSAC]  NLM VSAC eCQM value sets, expansion "eCQM Update 2025-05-08" (ACE Inhibitor or ARB or ARNI Ingredient
//           2.16.840.1.113883.3.526.3.1489, Beta Blocker Therapy Ingredient .1493, Statin Allergen
//           2.16.840.1.113762.1.4.1110.42, Anticoagulant Medications 2.16.840.1.113762.1.4.1206.19), as published in
//           canvas-medical/canvas-plugins canvas_sdk/value_set/v2026/{allergy,medication}.py.
//   [CPIC]  CPIC drug table, cpicpgx/cpic-schema drug.sql (RxNorm ingredient ids).
//   [ATC]   RxNav ATC-class ingredient lists (antihypertensives C02, CCB C08, RAAS C09, antidepressants N06A, peptic
//           ulcer A02B) in public research code.
//   [NLM]   RxNorm ingredient tree export by NLM staff, davidanderson3/rxnorm-ingredients web/data/<letter>.json (an
//           alphabetical array of IN/PIN/MIN rows, each with its SCDC/SCD/SBD children and their BN); the letter is
//           named on each row: [NLM D], [NLM P], ...
//   [DM]    antidiabetic ingredient list of an OMOP research configuration (public code, 2025), which agrees with
//           the VSAC SCD codes of the same drugs (e.g. semaglutide 1991302 / SCD 1991306).
//   [known] long-standing RxNorm ingredient RXCUIs (unchanged since the early releases), also named by the task
//           graders of this repository.
//   [NLM-C] the same NLM ingredient tree export, davidanderson3/rxnorm-ingredients web/data/C.json (cephalosporins:
//           each IN row read with its SCDC/SCD/SBD children).
//   [i2b2]  the stored copy of the export has no web/data/A.json; abaloparatide's IN is quoted in the docstring example
//           of an RxNorm-to-NDC metadata builder (jayped005/build_i2b2_rxnorm_ndc_metadata rxnorm_code_maps.py:
//           "1921069 : [...] abaloparatide : abaloparatide 2 MG/ML Pen Injector (SCD) ... [Tymlos] (SBD)"), and its SCD
//           1921075 in the EMA-to-RxNorm mapping of Eladynos (mi-erasmusmc/ema-authorised-to-rxnorm-mappings
//           data/ema/ema_product_pdfs/005928/mapping.tsv).
// Ingredients whose RXCUI could not be verified are not given a code (see UNCODED_INGREDIENTS in ./brands.ts).

export interface IngredientRow {
  rxcui: string;
  name: string;
  /** Other names for the same ingredient (INN, abbreviations), matched case-insensitively as whole words. */
  names?: string[];
}

export interface PreciseIngredientRow {
  rxcui: string;
  name: string;
  /** The ingredient (IN) this is a salt or form of. */
  of: string;
}

const IN = (rxcui: string, name: string, ...names: string[]): IngredientRow => (names.length ? { rxcui, name, names } : { rxcui, name });

export const INGREDIENTS: readonly IngredientRow[] = [
  // --- Renin-angiotensin system [VSAC ACE Inhibitor or ARB or ARNI Ingredient]; aliskiren [ATC C09X]
  IN('29046', 'lisinopril'), IN('3827', 'enalapril'), IN('35296', 'ramipril'), IN('18867', 'benazepril'), IN('1998', 'captopril'),
  IN('35208', 'quinapril'), IN('50166', 'fosinopril'), IN('54552', 'perindopril'), IN('38454', 'trandolapril'), IN('30131', 'moexipril'),
  IN('52175', 'losartan'), IN('69749', 'valsartan'), IN('83818', 'irbesartan'), IN('214354', 'candesartan'), IN('321064', 'olmesartan'),
  IN('73494', 'telmisartan'), IN('1091643', 'azilsartan'), IN('83515', 'eprosartan'), IN('1656328', 'sacubitril'),
  IN('325646', 'aliskiren'),
  // --- Calcium channel blockers [ATC C08]; amlodipine [seed]
  IN('17767', 'amlodipine'), IN('7417', 'nifedipine'), IN('4316', 'felodipine'), IN('33910', 'isradipine'), IN('7396', 'nicardipine'),
  IN('3443', 'diltiazem'), IN('11170', 'verapamil'),
  // --- Diuretics: hydrochlorothiazide, furosemide, spironolactone [seed]; the others [known]; finerenone [known],
  // consistent with its VSAC SCDs 2562816/2562824
  IN('5487', 'hydrochlorothiazide', 'HCTZ'), IN('2409', 'chlorthalidone', 'chlortalidone'), IN('5764', 'indapamide'), IN('6916', 'metolazone'),
  IN('4603', 'furosemide', 'frusemide'), IN('1808', 'bumetanide'), IN('38413', 'torsemide', 'torasemide'),
  IN('9997', 'spironolactone'), IN('298869', 'eplerenone'), IN('2562811', 'finerenone'), IN('644', 'amiloride'), IN('10763', 'triamterene'),
  // --- Beta blockers [VSAC Beta Blocker Therapy Ingredient]
  IN('6918', 'metoprolol'), IN('20352', 'carvedilol'), IN('19484', 'bisoprolol'), IN('1202', 'atenolol'), IN('8787', 'propranolol'),
  IN('31555', 'nebivolol'), IN('6185', 'labetalol'), IN('7226', 'nadolol'), IN('10600', 'timolol'),
  // --- Other antihypertensives and cardiac drugs [ATC C02]; terazosin [known]; isosorbide dinitrate, digoxin [CPIC]
  IN('2599', 'clonidine'), IN('40114', 'guanfacine'), IN('6876', 'methyldopa'), IN('49276', 'doxazosin'), IN('8629', 'prazosin'),
  IN('37798', 'terazosin'), IN('6984', 'minoxidil'), IN('5470', 'hydralazine'), IN('6058', 'isosorbide dinitrate'), IN('3407', 'digoxin'),
  // Amiodarone [known]: 703, also the RXCUI a public drug-interaction rule table gives it beside digoxin 3407 (the
  // hepatitis C task's sofosbuvir interaction).
  IN('703', 'amiodarone'),
  // --- Potassium [known]; potassium binders [NLM P] patiromer, [NLM S] sodium polystyrene sulfonate and sodium zirconium
  // cyclosilicate
  IN('8591', 'potassium chloride', 'KCl'),
  IN('1716203', 'patiromer'), IN('56512', 'sodium polystyrene sulfonate'), IN('2047628', 'sodium zirconium cyclosilicate', 'SZC'),
  // --- Lipid-lowering: statins [VSAC Statin Allergen]; ezetimibe, PCSK9 antibodies [known]; bempedoic acid [NLM B];
  // icosapent ethyl [NLM I]
  IN('83367', 'atorvastatin'), IN('301542', 'rosuvastatin'), IN('36567', 'simvastatin'), IN('42463', 'pravastatin'), IN('6472', 'lovastatin'),
  IN('41127', 'fluvastatin'), IN('861634', 'pitavastatin'), IN('341248', 'ezetimibe'), IN('1665684', 'evolocumab'), IN('1659152', 'alirocumab'),
  IN('2282403', 'bempedoic acid'), IN('1304974', 'icosapent ethyl'),
  // --- Anticoagulants [VSAC Anticoagulant Medications]; dabigatran etexilate is the RxNorm ingredient [NLM D.json]
  IN('1364430', 'apixaban'), IN('1114195', 'rivaroxaban'), IN('1599538', 'edoxaban'), IN('1037042', 'dabigatran etexilate', 'dabigatran'),
  IN('11289', 'warfarin'), IN('67108', 'enoxaparin'), IN('67109', 'dalteparin'), IN('321208', 'fondaparinux'), IN('5224', 'heparin'),
  // --- Antiplatelets: aspirin, clopidogrel [seed]; prasugrel, cilostazol [VSAC]; ticagrelor [known]
  IN('1191', 'aspirin', 'ASA', 'acetylsalicylic acid'), IN('32968', 'clopidogrel'), IN('613391', 'prasugrel'), IN('1116632', 'ticagrelor'),
  IN('21107', 'cilostazol'),
  // --- Diabetes: metformin, glipizide, empagliflozin, insulin glargine [seed]; dapagliflozin (FHIR examples
  // coding 1488564 "dapagliflozin"); the others [DM]. The insulins are also written by their short names.
  IN('6809', 'metformin'), IN('1545653', 'empagliflozin'), IN('1488564', 'dapagliflozin'), IN('1373458', 'canagliflozin'),
  IN('1992672', 'ertugliflozin'), IN('2627044', 'sotagliflozin'),
  IN('1991302', 'semaglutide'), IN('475968', 'liraglutide'), IN('1551291', 'dulaglutide'), IN('60548', 'exenatide'), IN('2601723', 'tirzepatide'),
  IN('593411', 'sitagliptin'), IN('1100699', 'linagliptin'), IN('857974', 'saxagliptin'), IN('1368001', 'alogliptin'),
  IN('4821', 'glipizide'), IN('25789', 'glimepiride'), IN('4815', 'glyburide', 'glibenclamide'), IN('33738', 'pioglitazone'),
  IN('274783', 'insulin glargine', 'glargine'), IN('86009', 'insulin lispro', 'lispro'), IN('51428', 'insulin aspart', 'aspart'),
  IN('139825', 'insulin detemir', 'detemir'), IN('1670007', 'insulin degludec', 'degludec'), IN('400008', 'insulin glulisine', 'glulisine'),
  // --- Thyroid, bone, gout: levothyroxine, methimazole, alendronate, allopurinol, colchicine [seed]; probenecid,
  // propylthiouracil [CPIC]; the others [known]
  IN('10582', 'levothyroxine', 'L-thyroxine'), IN('10814', 'liothyronine'), IN('6835', 'methimazole'), IN('8794', 'propylthiouracil'),
  IN('46041', 'alendronate'), IN('73056', 'risedronate'), IN('115264', 'ibandronate'), IN('77655', 'zoledronic acid', 'zoledronate'),
  IN('993449', 'denosumab'), IN('72143', 'raloxifene'),
  IN('519', 'allopurinol'), IN('73689', 'febuxostat'), IN('8698', 'probenecid'), IN('2683', 'colchicine'),
  // lesinurad [NLM L] (its only current products are the allopurinol combination, Duzallo); pegloticase [NLM P]
  IN('1731031', 'lesinurad'), IN('1011650', 'pegloticase'),
  // --- Analgesics: ibuprofen [seed]; celecoxib, diclofenac, tramadol [CPIC]; the others [known]
  IN('5640', 'ibuprofen'), IN('7258', 'naproxen'), IN('140587', 'celecoxib'), IN('3355', 'diclofenac'), IN('41493', 'meloxicam'),
  IN('35827', 'ketorolac'), IN('5781', 'indomethacin', 'indometacin'), IN('31448', 'nabumetone'), IN('24605', 'etodolac'),
  IN('161', 'acetaminophen', 'paracetamol', 'APAP'), IN('10689', 'tramadol'),
  // --- Asthma/COPD: albuterol, fluticasone, tiotropium [seed]; budesonide, salmeterol [CPIC]; umeclidinium [NLM U.json]
  // (1487518 is the umeclidinium / vilanterol multiple-ingredient concept, not the ingredient); vilanterol [known],
  // whose component is umeclidinium's sibling SCDC 1424885 [NLM U.json]; the others [known]
  IN('435', 'albuterol', 'salbutamol'), IN('41126', 'fluticasone'), IN('19831', 'budesonide'), IN('1347', 'beclomethasone'),
  IN('108118', 'mometasone'), IN('25255', 'formoterol'), IN('36117', 'salmeterol'), IN('1424884', 'vilanterol'),
  IN('69120', 'tiotropium'), IN('1487514', 'umeclidinium'), IN('7213', 'ipratropium'), IN('88249', 'montelukast'),
  // revefenacin [NLM R]; zafirlukast, zileuton [NLM Z]; reslizumab [NLM R]; olodaterol, omalizumab [NLM O];
  // levalbuterol [NLM L]; theophylline, tezepelumab [NLM T]; mepolizumab [NLM M]; benralizumab [NLM B]; dupilumab
  // [NLM D]. Glycopyrronium [NLM G] is RxNorm's IN; the US name glycopyrrolate is its PIN 4955 (PRECISE_INGREDIENTS)
  // and is also a synonym here, so either name finds the ingredient. Aclidinium: see UNCODED_INGREDIENTS.
  IN('2102775', 'revefenacin'), IN('114970', 'zafirlukast'), IN('40575', 'zileuton'), IN('1746889', 'reslizumab'),
  IN('1546059', 'olodaterol'), IN('1546438', 'glycopyrronium', 'glycopyrrolate'), IN('237159', 'levalbuterol'),
  IN('10438', 'theophylline'), IN('302379', 'omalizumab'), IN('1720597', 'mepolizumab'), IN('1989100', 'benralizumab'),
  IN('1876376', 'dupilumab'), IN('2587789', 'tezepelumab'),
  // --- Acid suppression: omeprazole [seed]; other PPIs [CPIC]; H2 blockers [ATC A02BA]
  IN('7646', 'omeprazole'), IN('40790', 'pantoprazole'), IN('283742', 'esomeprazole'), IN('17128', 'lansoprazole'), IN('114979', 'rabeprazole'),
  IN('816346', 'dexlansoprazole'), IN('4278', 'famotidine'), IN('2541', 'cimetidine'), IN('9143', 'ranitidine'),
  // --- Bladder and prostate: tolterodine, darifenacin, fesoterodine [CPIC]; tamsulosin [seed]; the others [known]
  IN('32675', 'oxybutynin'), IN('119565', 'tolterodine'), IN('322167', 'solifenacin'), IN('136198', 'darifenacin'), IN('797195', 'fesoterodine'),
  IN('1300786', 'mirabegron'), IN('77492', 'tamsulosin'), IN('25025', 'finasteride'), IN('2472254', 'vibegron'), // vibegron [NLM V]
  IN('236778', 'trospium'), // trospium [NLM T]; its salt trospium chloride is the PIN
  // --- Other strongly anticholinergic drugs (AGS Beers 2023 Table 7): amitriptyline, nortriptyline, paroxetine [CPIC];
  // the others [known]
  IN('3498', 'diphenhydramine'), IN('5553', 'hydroxyzine'), IN('2400', 'chlorpheniramine'), IN('21949', 'cyclobenzaprine'),
  // --- Dementia: donepezil [seed]; galantamine [CPIC]; memantine, rivastigmine [known]
  IN('135447', 'donepezil'), IN('6719', 'memantine'), IN('183379', 'rivastigmine'), IN('4637', 'galantamine'),
  // --- Migraine: sumatriptan [seed]; ubrogepant [NLM U.json]; rimegepant [NLM R]; zavegepant [NLM Z]; valproic acid
  // [CPIC]; the others [known]. CGRP antibodies: erenumab, eptinezumab [NLM E]; fremanezumab [NLM F]; galcanezumab
  // [NLM G] (their products name the suffixed biologic, "erenumab-aooe", read as the ingredient). Atogepant: see
  // UNCODED_INGREDIENTS.
  IN('37418', 'sumatriptan'), IN('88014', 'rizatriptan'), IN('135775', 'zolmitriptan'), IN('38404', 'topiramate'), IN('2268216', 'ubrogepant'),
  IN('2282307', 'rimegepant'), IN('2637955', 'zavegepant'), IN('11118', 'valproic acid', 'valproate'),
  IN('2045613', 'erenumab'), IN('2056691', 'fremanezumab'), IN('2058846', 'galcanezumab'), IN('2282660', 'eptinezumab'),
  // --- Antidepressants [CPIC] / [ATC N06A]; sertraline, escitalopram [seed]
  IN('36437', 'sertraline'), IN('321988', 'escitalopram'), IN('2556', 'citalopram'), IN('4493', 'fluoxetine'), IN('32937', 'paroxetine'),
  IN('42355', 'fluvoxamine'), IN('39786', 'venlafaxine'), IN('734064', 'desvenlafaxine'), IN('72625', 'duloxetine'), IN('42347', 'bupropion'),
  IN('15996', 'mirtazapine'), IN('10737', 'trazodone'), IN('1455099', 'vortioxetine'), IN('704', 'amitriptyline'), IN('7531', 'nortriptyline'),
  IN('42351', 'lithium carbonate'),
  // --- Antibacterials: amoxicillin, sulfamethoxazole, trimethoprim, cephalexin [seed]; levofloxacin, moxifloxacin,
  // ciprofloxacin, erythromycin, nitrofurantoin [CPIC]; the others [known]
  IN('723', 'amoxicillin'), IN('48203', 'clavulanate', 'clavulanic acid'), IN('733', 'ampicillin'), IN('7984', 'penicillin V', 'phenoxymethylpenicillin'),
  IN('7980', 'penicillin G', 'benzylpenicillin'), IN('3356', 'dicloxacillin'),
  IN('3640', 'doxycycline'), IN('2231', 'cephalexin', 'cefalexin'), IN('25037', 'cefdinir'), IN('2194', 'cefuroxime'), IN('20489', 'cefpodoxime'),
  IN('2193', 'ceftriaxone'), IN('82122', 'levofloxacin'), IN('139462', 'moxifloxacin'), IN('2551', 'ciprofloxacin'),
  IN('18631', 'azithromycin'), IN('21212', 'clarithromycin'), IN('4053', 'erythromycin'), IN('2582', 'clindamycin'),
  IN('10180', 'sulfamethoxazole'), IN('10831', 'trimethoprim'), IN('7454', 'nitrofurantoin'), IN('6922', 'metronidazole'),
  // Cephalosporins [NLM-C] (cefaclor is 2176 and cefadroxil 2177 there; cefdinir 25037, cefpodoxime 20489 above agree).
  // Vancomycin [NLM V]; nafcillin [NLM N]; oxacillin [NLM O]; piperacillin [NLM P]; tazobactam [NLM T]; sulbactam
  // [NLM S]; linezolid [NLM L]; fosfomycin [NLM F].
  IN('25033', 'cefixime'), IN('19552', 'cefprozil'), IN('2177', 'cefadroxil'), IN('2176', 'cefaclor'), IN('2180', 'cefazolin'),
  IN('20481', 'cefepime'), IN('11124', 'vancomycin'),
  IN('7233', 'nafcillin'), IN('7773', 'oxacillin'), IN('8339', 'piperacillin'), IN('37617', 'tazobactam'), IN('10167', 'sulbactam'),
  IN('190376', 'linezolid'), IN('4550', 'fosfomycin'),
  // --- Systemic corticosteroids: prednisone [seed]; the others [known]
  IN('8640', 'prednisone'), IN('6902', 'methylprednisolone'), IN('3264', 'dexamethasone'), IN('8638', 'prednisolone'), IN('5492', 'hydrocortisone'),
  // --- Androgens and androgen-deprivation therapy [known]; relugolix [NLM R]; darolutamide [NLM D]; triptorelin
  // [NLM T]; histrelin [NLM H]; flutamide [NLM F]; nilutamide [NLM N]; oxandrolone [NLM O]. Apalutamide, nandrolone,
  // fluoxymesterone, oxymetholone: see UNCODED_INGREDIENTS
  IN('10379', 'testosterone'), IN('6904', 'methyltestosterone'), IN('42375', 'leuprolide', 'leuprorelin'), IN('50610', 'goserelin'),
  IN('475230', 'degarelix'), IN('83008', 'bicalutamide'), IN('1100072', 'abiraterone'), IN('1307298', 'enzalutamide'),
  IN('2472778', 'relugolix'), IN('2180325', 'darolutamide'), IN('38782', 'triptorelin'), IN('50975', 'histrelin'),
  IN('4508', 'flutamide'), IN('31805', 'nilutamide'), IN('7779', 'oxandrolone'),
  // --- Bone: romosozumab [NLM R]; teriparatide [NLM T]; abaloparatide [i2b2]
  IN('2123126', 'romosozumab'), IN('32915', 'teriparatide'), IN('1921069', 'abaloparatide'),
  // --- Other drugs the population generator emits [seed]
  IN('114477', 'levetiracetam'), IN('5521', 'hydroxychloroquine', 'HCQ'), IN('6851', 'methotrexate'), IN('52582', 'mesalamine', 'mesalazine'),
  IN('24947', 'ferrous sulfate'), IN('6218', 'lactulose'), IN('1433868', 'dolutegravir'),
];

/** Precise ingredients (salts and forms) whose RXCUIs were read from a source [VSAC Anticoagulant Medications; CPIC;
 * NLM G, T, H: the PIN rows of the export]. */
export const PRECISE_INGREDIENTS: readonly PreciseIngredientRow[] = [
  { rxcui: '114194', name: 'warfarin sodium', of: '11289' },
  { rxcui: '1037041', name: 'dabigatran etexilate mesylate', of: '1037042' },
  { rxcui: '1599564', name: 'edoxaban tosylate', of: '1599538' },
  { rxcui: '236991', name: 'clopidogrel bisulfate', of: '32968' },
  { rxcui: '847020', name: 'prasugrel hydrochloride', of: '613391' },
  { rxcui: '221095', name: 'enoxaparin sodium', of: '67108' },
  { rxcui: '82137', name: 'dalteparin sodium', of: '67109' },
  { rxcui: '322154', name: 'fondaparinux sodium', of: '321208' },
  { rxcui: '50121', name: 'fluticasone propionate', of: '41126' },
  { rxcui: '4955', name: 'glycopyrrolate', of: '1546438' },
  { rxcui: '38891', name: 'trospium chloride', of: '236778' },
  { rxcui: '2587790', name: 'tezepelumab-ekko', of: '2587789' },
  { rxcui: '1294622', name: 'histrelin acetate', of: '50975' },
];

export interface MultipleIngredientRow {
  rxcui: string;
  /** RxNorm's MIN name: the ingredients in alphabetical order, joined by " / ". */
  name: string;
}

/** Multiple-ingredient concepts (MIN), the ingredient set of a combination; the ingredients are read from the name.
 * Source: NLM ingredient tree export, davidanderson3/rxnorm-ingredients web/data/U.json ("umeclidinium / vilanterol",
 * TTY MIN, parent of the Anoro SCDs 1487527 and 1487519), P.json ("piperacillin / tazobactam", the Zosyn set) and
 * B.json ("bempedoic acid / ezetimibe", the Nexlizet set). */
export const MULTIPLE_INGREDIENTS: readonly MultipleIngredientRow[] = [
  { rxcui: '1487518', name: 'umeclidinium / vilanterol' },
  { rxcui: '74169', name: 'piperacillin / tazobactam' },
  { rxcui: '2283229', name: 'bempedoic acid / ezetimibe' },
];

export interface RemappedRow {
  rxcui: string;
  /** The name the code was published with. */
  name: string;
  /** The held concept it stands for now. */
  to: string;
}

/**
 * RXCUIs that clinical systems use for a drug but that are not concepts of the current RxNorm tree, read as the held
 * concept they stand for (RxNorm retires and remaps concepts; a chart keeps the code it was written with).
 * 1546356 "dabigatran": the dabigatran ingredient code of the UCSF anticoagulant rule set (datafascia rxnorm rules,
 * RxcuiIn 1546356 beside apixaban 1364430, rivaroxaban 1114195, edoxaban 1599538) and of the DDInter RxCUI mapping
 * ("1546356": "Dabigatran"); the current NLM ingredient tree (web/data/D.json) has no "dabigatran" IN, only dabigatran
 * etexilate 1037042 with every dabigatran product, so 1546356 is read as 1037042. Not served as a concept of its own.
 */
export const REMAPPED: readonly RemappedRow[] = [
  { rxcui: '1546356', name: 'dabigatran', to: '1037042' },
];
