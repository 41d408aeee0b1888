-- Spreads Store Suppliers over a Citus cluster: every store table distributed by store_id (one co-location group,
-- so a store's rows share a node and a request of one store is a single-shard statement), the accounts, their keys
-- and sessions copied to every node (reference tables), the credit ledger distributed by account.
--
-- Run once, as a superuser on the coordinator, on a database the service has migrated (StoreKeysContract applied:
-- every key and foreign key between store tables includes store_id), with the service stopped or its writers paused
-- (create_distributed_table copies each table's rows into its shards). docs/scaling.md walks through it.
-- pg-boss's schema, the migrations table and the few service-wide tables (lookup_keys, rate_limits,
-- supplier_call_rates, exchange_rates, exchange_rate_pins) stay local tables on the coordinator.

BEGIN;

-- Reference tables first: distributed tables may refer to them, not the other way round.
SELECT create_reference_table('accounts');
SELECT create_reference_table('api_keys');
SELECT create_reference_table('sessions');

-- The co-location group's first table: stores, by its own id.
SELECT create_distributed_table('stores', 'id');

-- Parents before the tables that refer to them, all co-located with stores.
SELECT create_distributed_table('store_staff', 'store_id', colocate_with => 'stores');
SELECT create_distributed_table('store_products', 'store_id', colocate_with => 'stores');
SELECT create_distributed_table('store_variants', 'store_id', colocate_with => 'stores');
SELECT create_distributed_table('supplier_connections', 'store_id', colocate_with => 'stores');
SELECT create_distributed_table('store_supplier_routing', 'store_id', colocate_with => 'stores');
SELECT create_distributed_table('supplier_sign_in_states', 'store_id', colocate_with => 'stores');
SELECT create_distributed_table('supplier_notification_receipts', 'store_id', colocate_with => 'stores');
SELECT create_distributed_table('supplier_order_numbers', 'store_id', colocate_with => 'stores');
SELECT create_distributed_table('product_links', 'store_id', colocate_with => 'stores');
SELECT create_distributed_table('product_link_variants', 'store_id', colocate_with => 'stores');
SELECT create_distributed_table('product_link_alternates', 'store_id', colocate_with => 'stores');
SELECT create_distributed_table('import_jobs', 'store_id', colocate_with => 'stores');
SELECT create_distributed_table('import_job_items', 'store_id', colocate_with => 'stores');
SELECT create_distributed_table('store_orders', 'store_id', colocate_with => 'stores');
SELECT create_distributed_table('store_order_items', 'store_id', colocate_with => 'stores');
SELECT create_distributed_table('fulfilment_groups', 'store_id', colocate_with => 'stores');
SELECT create_distributed_table('payment_providers', 'store_id', colocate_with => 'stores');
SELECT create_distributed_table('payment_events', 'store_id', colocate_with => 'stores');
SELECT create_distributed_table('store_order_payments', 'store_id', colocate_with => 'stores');
SELECT create_distributed_table('supplier_orders', 'store_id', colocate_with => 'stores');
SELECT create_distributed_table('supplier_order_events', 'store_id', colocate_with => 'stores');
SELECT create_distributed_table('landed_costs', 'store_id', colocate_with => 'stores');
SELECT create_distributed_table('supplier_claims', 'store_id', colocate_with => 'stores');
SELECT create_distributed_table('supplier_claim_items', 'store_id', colocate_with => 'stores');
SELECT create_distributed_table('supplier_credits', 'store_id', colocate_with => 'stores');
SELECT create_distributed_table('part_returns', 'store_id', colocate_with => 'stores');
SELECT create_distributed_table('profit_sums', 'store_id', colocate_with => 'stores');
SELECT create_distributed_table('profit_order_keys', 'store_id', colocate_with => 'stores');
SELECT create_distributed_table('profit_deltas', 'store_id', colocate_with => 'stores');
SELECT create_distributed_table('event_outbox', 'store_id', colocate_with => 'stores');
SELECT create_distributed_table('event_subscriptions', 'store_id', colocate_with => 'stores');
SELECT create_distributed_table('event_deliveries', 'store_id', colocate_with => 'stores');
SELECT create_distributed_table('event_reactions', 'store_id', colocate_with => 'stores');
SELECT create_distributed_table('store_product_counts', 'store_id', colocate_with => 'stores');
SELECT create_distributed_table('product_link_counts', 'store_id', colocate_with => 'stores');
SELECT create_distributed_table('store_order_counts', 'store_id', colocate_with => 'stores');
SELECT create_distributed_table('supplier_order_counts', 'store_id', colocate_with => 'stores');

-- The credit ledger: written on every charged call, too often for a copy on every node; its own group, by account.
SELECT create_distributed_table('credit_ledger', 'account_id', colocate_with => 'none');
-- Credits held while their request runs: beside the ledger rows their settling writes.
SELECT create_distributed_table('credit_holds', 'account_id', colocate_with => 'credit_ledger');
-- Callers' idempotency keys: by account too, in the ledger's group.
SELECT create_distributed_table('idempotency_keys', 'account_id', colocate_with => 'credit_ledger');

COMMIT;
