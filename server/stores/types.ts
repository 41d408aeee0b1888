// The stores domain's types; its data module (./sql/) maps its rows into them.

export interface Store {
  id: string;
  ownerAccountId: string;
  name: string;
  currency: string;
  createdAt: Date;
}

export interface StaffMember {
  storeId: string;
  accountId: string;
  permissions: string[];
  createdAt: Date;
}

export type ProductStatus = 'active' | 'draft' | 'archived';

export interface StoreProduct {
  id: string;
  storeId: string;
  title: string;
  description: string;
  status: ProductStatus;
  createdByAccountId: string;
  createdByKeyId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface StoreVariant {
  id: string;
  productId: string;
  storeId: string;
  sku: string;
  title: string;
  priceMinor: number;
  currency: string;
  stock: number;
  position: number;
}

/** A store product as its routes answer it. */
export interface ProductView {
  id: string;
  storeId: string;
  title: string;
  description: string;
  status: string;
  variants: Array<{ id: string; sku: string; title: string; priceMinor: number; currency: string; stock: number }>;
  createdByKeyId: string | null;
  createdAt: string;
  updatedAt: string;
}
