-- Joint mining holds the NADI price the buyer previewed (issue 17 §4): an order previewed at 188.28
-- power gave 187.23 because the power was priced when the order was paid, at whatever the price was
-- by then. The order is now priced when it is placed — refused if the price moved since the preview —
-- and pays at that price for as long as it may be paid, as a gold order keeps its price.
CREATE TABLE joint_order_prices (
  order_id INTEGER PRIMARY KEY REFERENCES pay_orders(id),
  price    INTEGER NOT NULL CHECK (price > 0)  -- USDT per NADI, units of 1e-8
) WITHOUT ROWID;
