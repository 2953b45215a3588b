/** A table description the code generator accepts: one column of each type. */
export function customerSpec(service: string) {
  return {
    service,
    entity: 'customer',
    columns: [
      { name: 'name', type: 'string', required: true, searchable: true, description: 'Shown name' },
      { name: 'email', type: 'string', searchable: true, max_length: 120 },
      { name: 'level', type: 'integer', required: true, searchable: true },
      { name: 'vip', type: 'boolean', searchable: true },
      { name: 'since', type: 'date', searchable: true },
      { name: 'note', type: 'text' },
      { name: 'score', type: 'number' },
      { name: 'last_contact_at', type: 'timestamp' },
    ],
  };
}
