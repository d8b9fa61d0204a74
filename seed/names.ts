// Name and address pools for synthetic people (common US names; no real person is described).
export const GIVEN_FEMALE = ['Mary', 'Patricia', 'Jennifer', 'Linda', 'Elizabeth', 'Barbara', 'Susan', 'Jessica', 'Sarah', 'Karen',
  'Lisa', 'Nancy', 'Betty', 'Sandra', 'Margaret', 'Ashley', 'Kimberly', 'Emily', 'Donna', 'Michelle', 'Carol', 'Amanda', 'Melissa',
  'Deborah', 'Stephanie', 'Maria', 'Rosa', 'Guadalupe', 'Mei', 'Linh', 'Aisha', 'Keisha', 'Fatima', 'Priya', 'Ana', 'Grace'];
export const GIVEN_MALE = ['James', 'Robert', 'John', 'Michael', 'David', 'William', 'Richard', 'Joseph', 'Thomas', 'Charles',
  'Christopher', 'Daniel', 'Matthew', 'Anthony', 'Mark', 'Donald', 'Steven', 'Paul', 'Andrew', 'Joshua', 'Kenneth', 'Kevin', 'Brian',
  'George', 'Timothy', 'Jose', 'Luis', 'Carlos', 'Wei', 'Minh', 'Omar', 'Darnell', 'Raj', 'Ahmed', 'Samuel', 'Diego'];
export const FAMILY_NAMES = ['Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez',
  'Hernandez', 'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin', 'Lee', 'Perez', 'Thompson',
  'White', 'Harris', 'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson', 'Walker', 'Young', 'Allen', 'King', 'Wright', 'Scott',
  'Torres', 'Nguyen', 'Hill', 'Flores', 'Green', 'Adams', 'Nelson', 'Baker', 'Hall', 'Rivera', 'Campbell', 'Mitchell', 'Carter',
  'Roberts', 'Chen', 'Patel', 'Kim', 'Okafor', 'Washington', 'Brooks', 'Reyes', 'Morales', 'Cohen', 'Schmidt'];
export const STREETS = ['Oak St', 'Maple Ave', 'Cedar Ln', 'Elm St', 'Pine Rd', 'Washington Blvd', 'Lake Dr', 'Hillcrest Rd',
  'Park Ave', 'Main St', 'Sunset Blvd', 'Church St', 'Mill Rd', 'Walnut St', 'Jefferson Ave'];
/** City, state, ZIP, and the UTC offset (minutes, standard time) used for that patient's local timestamps. */
export const CITIES: [string, string, string, number][] = [
  ['Springfield', 'IL', '62704', -360], ['Chicago', 'IL', '60614', -360], ['Columbus', 'OH', '43215', -300],
  ['Atlanta', 'GA', '30309', -300], ['Denver', 'CO', '80205', -420], ['Phoenix', 'AZ', '85004', -420],
  ['Sacramento', 'CA', '95814', -480], ['Boston', 'MA', '02118', -300], ['Houston', 'TX', '77004', -360],
  ['Seattle', 'WA', '98101', -480],
];
