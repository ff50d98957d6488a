BEGIN;
--
-- Add field region to order
--
ALTER TABLE "shop_order" ADD COLUMN "region" varchar(8) NOT NULL;
--
-- Raw SQL operation
--
UPDATE "shop_order" SET "region" = 'eu';
--
-- Alter field amount on order
--
ALTER TABLE "shop_order" ALTER COLUMN "amount" TYPE numeric(14, 2) USING "amount"::numeric(14, 2);
ALTER TABLE "shop_order" ALTER COLUMN "tax" TYPE bigint USING "tax"::bigint;
COMMIT;
