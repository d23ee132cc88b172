/** Who is acting: the owner of the API key or of the session. */
export interface Actor {
  userId: number;
  isAdmin: boolean;
}
