-- Why a trade order was cancelled when its owner did not cancel it (issue 33 §10: an order the
-- engine ended vanished from the lists with nothing to say why): 'self_trade' (the owner's own
-- incoming order reached it), 'no_liquidity' (a market order's rest found no opposite orders),
-- 'budget' (a market buy's rest buys not one lot), 'repair' (the market's repair cancelled it).
-- NULL for every other order, a cancel by its owner included.
ALTER TABLE trade_orders ADD COLUMN cancel_reason TEXT;
