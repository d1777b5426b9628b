-- Sample data of the demo app, loaded into the instance database at start (src/srs/app-seed.ts):
-- on first start, and again only when this file changes. Portable SQL for SQLite and
-- PostgreSQL, idempotent (IF NOT EXISTS, ON CONFLICT DO NOTHING). Amounts are NUMERIC; dates are
-- DATE columns holding 'YYYY-MM-DD' (SQLite keeps the text, PostgreSQL a date: the reports see
-- the same text on both). Tables are prefixed demo_ to stay clear of the platform's own.
-- Line amounts are whole cents before rounding, so ROUND(…, 2) gives the same on SQLite (binary
-- floating point) and PostgreSQL (exact numeric).

CREATE TABLE IF NOT EXISTS demo_customers (
  id INTEGER PRIMARY KEY,
  name VARCHAR(100) NOT NULL,
  contact VARCHAR(100),
  email VARCHAR(200),
  phone VARCHAR(40),
  street VARCHAR(100),
  postal_code VARCHAR(20),
  city VARCHAR(60) NOT NULL,
  country VARCHAR(60) NOT NULL,
  segment VARCHAR(20) NOT NULL,
  credit_limit NUMERIC(12, 2),
  note TEXT
);

CREATE TABLE IF NOT EXISTS demo_products (
  id INTEGER PRIMARY KEY,
  sku VARCHAR(20) NOT NULL,
  name VARCHAR(100) NOT NULL,
  category VARCHAR(40) NOT NULL,
  unit_price NUMERIC(10, 2) NOT NULL
);

CREATE TABLE IF NOT EXISTS demo_orders (
  id INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL REFERENCES demo_customers (id),
  order_date DATE NOT NULL,
  due_date DATE,
  shipped_date DATE,
  status VARCHAR(20) NOT NULL,
  reference VARCHAR(40),
  note TEXT
);

CREATE TABLE IF NOT EXISTS demo_order_lines (
  order_id INTEGER NOT NULL REFERENCES demo_orders (id),
  line_no INTEGER NOT NULL,
  product_id INTEGER NOT NULL REFERENCES demo_products (id),
  quantity INTEGER NOT NULL,
  unit_price NUMERIC(10, 2) NOT NULL,
  discount_pct NUMERIC(5, 2) NOT NULL DEFAULT 0,
  PRIMARY KEY (order_id, line_no)
);

INSERT INTO demo_customers (id, name, contact, email, phone, street, postal_code, city, country, segment, credit_limit, note) VALUES
  (1, 'Alpine Outfitters AG', 'Heidi Brunner', 'heidi.brunner@alpine-outfitters.example', '+41 44 555 01 10', 'Bahnhofstrasse 12', '8001', 'Zürich', 'Switzerland', 'key', 50000.00, 'Pays within 10 days; prefers e-mail.'),
  (2, 'Baltic Amber Trading', 'Jonas Petraitis', 'jonas@baltic-amber.example', NULL, 'Gedimino pr. 9', '01103', 'Vilnius', 'Lithuania', 'standard', 15000.00, NULL),
  (3, 'Café Lumière SARL', 'Élodie Garnier', 'elodie@cafe-lumiere.example', '+33 1 55 50 12 34', '18 rue des Martyrs', '75009', 'Paris', 'France', 'standard', 8000.00, 'Deliveries before 9:00 only.'),
  (4, 'Desert Bloom Nursery', 'Omar Haddad', NULL, '+1 602 555 0143', '4410 E Camelback Rd', '85018', 'Phoenix', 'USA', 'small', NULL, NULL),
  (5, 'Eastwind Logistics Ltd', 'Grace Okafor', 'grace.okafor@eastwind.example', '+44 20 7946 0321', '1 Canada Square', 'E14 5AB', 'London', 'United Kingdom', 'key', 120000.00, 'Framework contract 2024-17.'),
  (6, 'Fjord & Field AS', 'Ingrid Solberg', 'ingrid@fjordfield.example', '+47 22 55 50 00', 'Karl Johans gate 5', '0154', 'Oslo', 'Norway', 'standard', 20000.00, NULL),
  (7, 'Golden Gate Ceramics', 'Miguel Santos', 'miguel@ggceramics.example', NULL, '550 Bryant St', '94107', 'San Francisco', 'USA', 'small', 3000.00, 'Credit on hold until the March invoice is paid.'),
  (8, 'Hanseatic Paper GmbH', 'Klaus Meier', 'k.meier@hanseatic-paper.example', '+49 40 555 777 0', 'Speicherstadt 3', '20457', 'Hamburg', 'Germany', 'key', 75000.00, NULL)
ON CONFLICT DO NOTHING;

INSERT INTO demo_products (id, sku, name, category, unit_price) VALUES
  (1, 'NB-A5-DOT', 'Notebook A5, dotted', 'Paper', 4.90),
  (2, 'NB-A4-LIN', 'Notebook A4, lined', 'Paper', 6.50),
  (3, 'PN-GEL-BLK', 'Gel pen, black (10 pack)', 'Writing', 12.00),
  (4, 'PN-FTN-STL', 'Fountain pen, steel nib', 'Writing', 39.00),
  (5, 'IN-BTL-BLU', 'Ink bottle, royal blue 50 ml', 'Writing', 8.75),
  (6, 'DK-ORG-BMB', 'Desk organiser, bamboo', 'Desk', 27.40),
  (7, 'DK-LMP-LED', 'Desk lamp, LED, dimmable', 'Desk', 64.00),
  (8, 'EN-C5-100', 'Envelopes C5 (100)', 'Paper', 9.95),
  (9, 'ST-MRK-HI', 'Highlighters, 6 colours', 'Writing', 7.20),
  (10, 'DK-CHR-ERG', 'Ergonomic chair', 'Furniture', 349.00),
  (11, 'DK-TBL-STD', 'Standing desk, 140 cm', 'Furniture', 589.00),
  (12, 'PP-CPY-A4', 'Copy paper A4, 500 sheets', 'Paper', 5.60)
ON CONFLICT DO NOTHING;

INSERT INTO demo_orders (id, customer_id, order_date, due_date, shipped_date, status, reference, note) VALUES
  (1001, 1, '2024-01-08', '2024-02-07', '2024-01-10', 'paid', 'PO-4471', NULL),
  (1002, 5, '2024-01-15', '2024-02-14', '2024-01-17', 'paid', 'EW-2024-003', 'Split delivery: chairs shipped separately.'),
  (1003, 3, '2024-01-22', '2024-02-21', '2024-01-24', 'paid', NULL, NULL),
  (1004, 8, '2024-02-02', '2024-03-03', '2024-02-05', 'paid', 'HP-77812', NULL),
  (1005, 2, '2024-02-12', '2024-03-13', '2024-02-14', 'paid', NULL, 'Customs documents attached.'),
  (1006, 7, '2024-02-19', '2024-03-20', '2024-02-22', 'overdue', 'GG-19', 'Reminder sent 2024-03-28.'),
  (1007, 1, '2024-03-04', '2024-04-03', '2024-03-06', 'paid', 'PO-4502', NULL),
  (1008, 6, '2024-03-11', '2024-04-10', '2024-03-13', 'paid', NULL, NULL),
  (1009, 5, '2024-03-18', '2024-04-17', '2024-03-19', 'paid', 'EW-2024-011', NULL),
  (1010, 4, '2024-03-25', '2024-04-24', NULL, 'open', NULL, 'Waiting for the lamp restock.'),
  (1011, 8, '2024-04-02', '2024-05-02', '2024-04-04', 'open', 'HP-78005', NULL),
  (1012, 3, '2024-04-09', '2024-05-09', NULL, 'cancelled', NULL, 'Cancelled by the customer on 2024-04-10.'),
  (1013, 1, '2024-04-15', '2024-05-15', '2024-04-17', 'open', 'PO-4533', NULL),
  (1014, 5, '2024-04-22', '2024-05-22', NULL, 'open', 'EW-2024-019', NULL)
ON CONFLICT DO NOTHING;

INSERT INTO demo_order_lines (order_id, line_no, product_id, quantity, unit_price, discount_pct) VALUES
  (1001, 1, 1, 40, 4.90, 0),
  (1001, 2, 3, 12, 12.00, 5),
  (1001, 3, 6, 4, 27.40, 0),
  (1001, 4, 12, 20, 5.60, 0),
  (1002, 1, 10, 6, 349.00, 10),
  (1002, 2, 11, 6, 589.00, 10),
  (1002, 3, 7, 6, 64.00, 0),
  (1003, 1, 2, 15, 6.50, 0),
  (1003, 2, 9, 10, 7.20, 0),
  (1004, 1, 12, 200, 5.60, 12.5),
  (1004, 2, 8, 30, 9.95, 10),
  (1004, 3, 1, 100, 4.90, 10),
  (1004, 4, 2, 100, 6.50, 10),
  (1005, 1, 4, 10, 39.00, 0),
  (1005, 2, 5, 25, 8.75, 0),
  (1006, 1, 6, 8, 27.40, 0),
  (1006, 2, 9, 20, 7.20, 0),
  (1007, 1, 3, 24, 12.00, 5),
  (1007, 2, 1, 60, 4.90, 0),
  (1008, 1, 7, 3, 64.00, 0),
  (1008, 2, 4, 2, 39.00, 0),
  (1008, 3, 5, 4, 8.75, 0),
  (1009, 1, 12, 150, 5.60, 10),
  (1009, 2, 8, 40, 9.95, 0),
  (1009, 3, 10, 2, 349.00, 10),
  (1010, 1, 7, 5, 64.00, 0),
  (1010, 2, 6, 5, 27.40, 0),
  (1011, 1, 2, 80, 6.50, 8),
  (1011, 2, 3, 30, 12.00, 5),
  (1011, 3, 9, 30, 7.20, 5),
  (1012, 1, 11, 1, 589.00, 0),
  (1013, 1, 1, 50, 4.90, 0),
  (1013, 2, 4, 6, 39.00, 0),
  (1013, 3, 5, 12, 8.75, 0),
  (1013, 4, 6, 2, 27.40, 0),
  (1014, 1, 10, 4, 349.00, 10),
  (1014, 2, 12, 100, 5.60, 10)
ON CONFLICT DO NOTHING;
