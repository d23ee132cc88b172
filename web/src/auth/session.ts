import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap, useApi, type paths } from '../api/client';
import { ApiError } from '../api/errors';

export type User = paths['/api/auth/me']['get']['responses'][200]['content']['application/json']['user'];
export interface Credentials {
  email: string;
  password: string;
}

export const sessionKey = ['session'] as const;

/** The signed-in user, or null. A 401 is an answer here, not an error. */
export function useSession() {
  const api = useApi();
  return useQuery({
    queryKey: sessionKey,
    queryFn: async (): Promise<User | null> => {
      try {
        return (await unwrap(api.GET('/api/auth/me'))).user;
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: 60_000,
  });
}

export function useSignIn() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Credentials) => unwrap(api.POST('/api/auth/login', { body })),
    onSuccess: ({ user }) => queryClient.setQueryData(sessionKey, user),
  });
}

export function useRegister() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Credentials) => unwrap(api.POST('/api/auth/register', { body })),
    onSuccess: ({ user }) => queryClient.setQueryData(sessionKey, user),
  });
}

export function useSignOut() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST('/api/auth/logout')),
    // Whatever the answer, nothing of the previous user stays in the cache.
    onSettled: () => {
      queryClient.clear();
      queryClient.setQueryData(sessionKey, null);
    },
  });
}
