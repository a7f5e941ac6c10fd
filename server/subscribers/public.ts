// Status-page subscribers as the API shows them (to admins only).

export interface PublicSubscriber {
  id: number;
  email: string;
  /** false: the confirmation link was not followed yet. */
  confirmed: boolean;
  createdAt: number;
  confirmedAt: number | null;
}

/** GET /api/status-pages/{id}/subscribers */
export interface SubscriberList {
  confirmed: number;
  pending: number;
  /** Newest first. */
  subscribers: PublicSubscriber[];
}
