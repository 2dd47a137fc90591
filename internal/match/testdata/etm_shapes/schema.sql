-- The database of the generated ETM shape pairs (pairs.jsonl): keys and foreign keys
-- as the ETM script reads them (PRAGMA table_info / foreign_key_list / index_list).
CREATE TABLE student (stuid INTEGER PRIMARY KEY, fname TEXT, age INTEGER, city TEXT);
CREATE TABLE pets (petid INTEGER PRIMARY KEY, pettype TEXT, weight REAL);
CREATE TABLE has_pet (stuid INTEGER REFERENCES student(stuid), petid INTEGER REFERENCES pets(petid));
CREATE TABLE prof (pid INTEGER PRIMARY KEY, name TEXT, state TEXT, cell TEXT);
CREATE TABLE treat (tid INTEGER PRIMARY KEY, pid INTEGER NOT NULL REFERENCES prof(pid), cost INTEGER);
CREATE TABLE office (oid INTEGER PRIMARY KEY, pid INTEGER REFERENCES prof(pid), city TEXT);
-- visit sorts after prof, office before it: the script's rule 13 reads the first table by name.
CREATE TABLE visit (vid INTEGER PRIMARY KEY, pid INTEGER REFERENCES prof(pid), day TEXT);
INSERT INTO student VALUES (1, 'Ann', 20, 'Rome'), (2, 'Bob', 22, 'Oslo');
INSERT INTO pets VALUES (1, 'dog', 10.5), (2, 'cat', 3.0);
INSERT INTO has_pet VALUES (1, 1), (1, 2), (2, 1);
INSERT INTO prof VALUES (1, 'Cy', 'Indiana', '555'), (2, 'Di', 'Ohio', '556');
INSERT INTO treat VALUES (1, 1, 100), (2, 1, 200), (3, 2, 50);
INSERT INTO office VALUES (1, 1, 'Rome'), (2, 2, 'Oslo');
INSERT INTO visit VALUES (1, 1, 'mon'), (2, 2, 'tue');
