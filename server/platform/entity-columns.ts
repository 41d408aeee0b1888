import { Column, CreateDateColumn, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { ValueTransformer } from 'typeorm';

// Column declarations several entities share. The schema is the migrations'; these only say how it is read.

/** A bigint column read as a JS number (amounts in minor units stay far below 2^53). */
export const bigintNumber: ValueTransformer = { to: (v: number | null) => v, from: (v: string | null) => (v === null ? null : Number(v)) };

/** `created_at`, set by the database on insert. */
export const createdAtColumn = () => CreateDateColumn({ name: 'created_at', type: 'timestamptz' });
/** `updated_at`, stamped by TypeORM on every repository update. */
export const updatedAtColumn = () => UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' });

/**
 * A record of a store that a caller made: its id, its store, who made it (the account, and the key when one
 * was used: the record scope of `own` keys reads this) and when, and its last change.
 */
export abstract class StoreRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid', { name: 'store_id' }) storeId: string;
  @Column('uuid', { name: 'created_by_account_id' }) createdByAccountId: string;
  @Column('uuid', { name: 'created_by_key_id', nullable: true }) createdByKeyId: string | null;
  @createdAtColumn() createdAt: Date;
  @updatedAtColumn() updatedAt: Date;
}
