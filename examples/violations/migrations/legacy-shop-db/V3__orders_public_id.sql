SET lock_timeout = '3s';

ALTER TABLE orders ADD COLUMN public_id uuid DEFAULT gen_random_uuid();
ALTER TABLE orders ADD COLUMN seq bigserial;
ALTER TABLE customers ALTER COLUMN id TYPE bigint;
ALTER TABLE orders ALTER COLUMN customer_id SET NOT NULL;
