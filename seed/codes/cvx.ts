// CVX vaccine codes (CDC) with their short descriptions.
import type { CodeTable } from './types.ts';

export const CVX: CodeTable = {
  system: 'http://hl7.org/fhir/sid/cvx',
  title: 'CVX',
  concepts: {
    '140': 'Influenza, seasonal, injectable, preservative free',
    '115': 'Tdap',
    '113': 'Td (adult) preservative free',
    '33': 'pneumococcal polysaccharide PPV23',
    '133': 'Pneumococcal conjugate PCV 13',
    '187': 'zoster recombinant',
    '08': 'Hep B, adolescent or pediatric',
    '43': 'Hep B, adult',
    '03': 'MMR',
    '21': 'varicella',
    '10': 'IPV',
    '20': 'DTaP',
    '165': 'HPV9',
    '62': 'HPV, quadrivalent',
    '208': 'COVID-19, mRNA, LNP-S, PF, 30 mcg/0.3 mL dose',
  },
};
